//! The one probe of how much memory this process may still take. Every large table and
//! buffer of the crate and of the Python extension is sized by it, so that a request too big
//! for the machine is refused up front (or a table stops growing) instead of an abort or the
//! kernel's out-of-memory killer taking the process, or another one.
//!
//! The room is the smallest of what each of these leaves, where it can be read:
//!
//! * the kernel's estimate of available memory (`MemAvailable` in `/proc/meminfo`);
//! * the memory limit of the process's control group, version 2 (`memory.max` less
//!   `memory.current`, for the group and each group above it) or version 1
//!   (`memory.limit_in_bytes` less `memory.usage_in_bytes`);
//! * the address-space limit (`ulimit -v`, `RLIMIT_AS`, less the process's `VmSize`) and the
//!   data limit (`RLIMIT_DATA`, less `VmData`), from `/proc/self/limits` and
//!   `/proc/self/status`.
//!
//! Where none can be read (systems other than Linux) there is no estimate, and only a failed
//! allocation refuses.

use std::fmt;

/// Which limit bounds the memory left.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Limit {
    /// The kernel's estimate of available memory (`MemAvailable`).
    Available,
    /// A control group's memory limit (a container's, say).
    Cgroup,
    /// The address-space limit (`ulimit -v`).
    AddressSpace,
    /// The data-segment limit (`ulimit -d`).
    Data,
}

impl fmt::Display for Limit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Limit::Available => "the memory available (MemAvailable)",
            Limit::Cgroup => "the room under the control group's memory limit",
            Limit::AddressSpace => "the room under the address-space limit (ulimit -v)",
            Limit::Data => "the room under the data-size limit (ulimit -d)",
        })
    }
}

/// Bytes this process may still take, and the limit that says so; `None` where nothing can
/// be read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Room {
    pub bytes: u64,
    pub limit: Limit,
}

impl fmt::Display for Room {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} MiB, {}", self.bytes >> 20, self.limit)
    }
}

/// Bytes this process may still allocate (see the module docs), `None` where no limit can be
/// read.
pub fn available_memory() -> Option<u64> {
    room().map(|r| r.bytes)
}

/// [`available_memory`] with the limit that bounds it.
pub fn room() -> Option<Room> {
    let mut rooms: Vec<Room> = Vec::new();
    let mut add = |bytes: Option<u64>, limit: Limit| {
        if let Some(bytes) = bytes {
            rooms.push(Room { bytes, limit });
        }
    };
    if let Some(meminfo) = read("/proc/meminfo") {
        add(kib_field(&meminfo, "MemAvailable:"), Limit::Available);
    }
    add(cgroup_room(), Limit::Cgroup);
    if let (Some(limits), Some(status)) = (read("/proc/self/limits"), read("/proc/self/status")) {
        let left = |name: &str, used: &str| {
            Some(soft_limit(&limits, name)?.saturating_sub(kib_field(&status, used)?))
        };
        add(left("Max address space", "VmSize:"), Limit::AddressSpace);
        add(left("Max data size", "VmData:"), Limit::Data);
    }
    rooms.into_iter().min_by_key(|r| r.bytes)
}

fn read(path: &str) -> Option<String> {
    std::fs::read_to_string(path).ok()
}

/// A `Key:  1234 kB` field of a /proc file, in bytes.
fn kib_field(text: &str, key: &str) -> Option<u64> {
    let line = text.lines().find(|l| l.starts_with(key))?;
    let kib: u64 = line[key.len()..].split_whitespace().next()?.parse().ok()?;
    Some(kib.saturating_mul(1024))
}

/// The soft limit named `name` in /proc/self/limits, `None` when unlimited.
fn soft_limit(limits: &str, name: &str) -> Option<u64> {
    let line = limits.lines().find(|l| l.starts_with(name))?;
    line[name.len()..].split_whitespace().next()?.parse().ok()
}

/// A number in a cgroup file; `None` for "max" (no limit) or an unreadable file.
fn cgroup_number(path: &str) -> Option<u64> {
    read(path)?.trim().parse().ok()
}

/// The least room under the memory limits of the process's control groups: its own group and
/// every group above it (version 2), or its memory group (version 1). Inside a container the
/// group's path is often not visible, so the root of the mount is read too.
fn cgroup_room() -> Option<u64> {
    let mut dirs: Vec<(String, bool)> = Vec::new();
    if let Some(own) = read("/proc/self/cgroup") {
        for line in own.lines() {
            let mut parts = line.splitn(3, ':');
            let (_, controllers, path) = (parts.next(), parts.next(), parts.next());
            let (Some(controllers), Some(path)) = (controllers, path) else {
                continue;
            };
            if controllers.is_empty() {
                // Version 2: the group and each one above it.
                let mut p = path.trim_end_matches('/').to_string();
                loop {
                    dirs.push((format!("/sys/fs/cgroup{p}"), true));
                    match p.rfind('/') {
                        Some(i) if !p.is_empty() => p.truncate(i),
                        _ => break,
                    }
                }
            } else if controllers.split(',').any(|c| c == "memory") {
                let p = path.trim_end_matches('/');
                dirs.push((format!("/sys/fs/cgroup/memory{p}"), false));
            }
        }
    }
    dirs.push(("/sys/fs/cgroup".to_string(), true));
    dirs.push(("/sys/fs/cgroup/memory".to_string(), false));
    dirs.into_iter()
        .filter_map(|(dir, v2)| {
            let (max, current) = if v2 {
                ("memory.max", "memory.current")
            } else {
                ("memory.limit_in_bytes", "memory.usage_in_bytes")
            };
            let max = cgroup_number(&format!("{dir}/{max}"))?;
            // Version 1 writes "no limit" as a huge number.
            if max >= 1 << 60 {
                return None;
            }
            let used = cgroup_number(&format!("{dir}/{current}")).unwrap_or(0);
            Some(max.saturating_sub(used))
        })
        .min()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fields_and_limits_are_read() {
        let status = "Name:\tx\nVmSize:\t  2048 kB\nVmData:\t 1024 kB\n";
        assert_eq!(kib_field(status, "VmSize:"), Some(2 << 20));
        assert_eq!(kib_field(status, "VmData:"), Some(1 << 20));
        assert_eq!(kib_field(status, "VmRSS:"), None);
        let limits = "Limit                     Soft Limit           Hard Limit           Units\n\
                      Max data size             unlimited            unlimited            bytes\n\
                      Max address space         1000000000           unlimited            bytes\n";
        assert_eq!(soft_limit(limits, "Max address space"), Some(1_000_000_000));
        assert_eq!(soft_limit(limits, "Max data size"), None);
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn linux_has_an_estimate() {
        let room = room().expect("Linux reports MemAvailable");
        assert!(room.bytes > 0 && room.to_string().contains("MiB"), "{room}");
    }
}
