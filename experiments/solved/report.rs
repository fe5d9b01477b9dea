//! The markdown tables the `solved` and `graphs` experiments write to experiments/solved/: one row a
//! board, found by its label (the first cell). A run of some boards replaces their rows and
//! keeps the others, so one board can be rerun alone without losing the rest of the report.

use std::fmt::Write as _;

/// A report file: its header, the boards' labels in the order of the list, and its rows.
pub struct Report {
    path: String,
    header: String,
    labels: Vec<String>,
    rows: Vec<(String, String)>,
}

impl Report {
    /// The report at `path` as it stands (no rows if it does not exist yet); `columns` are
    /// the header's cells after the label's, `labels` every board of the list in order.
    pub fn open(path: &str, columns: &[&str], labels: Vec<String>) -> Report {
        let mut header = String::from("| board |");
        for c in columns {
            write!(header, " {c} |").unwrap();
        }
        header.push('\n');
        header.push_str(&"|---".repeat(columns.len() + 1));
        header.push_str("|\n");
        let rows = std::fs::read_to_string(path)
            .unwrap_or_default()
            .lines()
            .filter_map(|l| {
                let label = l.strip_prefix("| ")?.split(" |").next()?.trim();
                (label != "board" && !label.starts_with("---"))
                    .then(|| (label.to_string(), l.to_string()))
            })
            .collect();
        Report {
            path: path.to_string(),
            header,
            labels,
            rows,
        }
    }

    /// Puts `line` in place of `label`'s row and writes the file: rows in the list's order,
    /// rows of labels no longer in the list last.
    pub fn put(&mut self, label: &str, line: String) {
        self.rows.retain(|r| r.0 != label);
        self.rows.push((label.to_string(), line));
        let labels = &self.labels;
        self.rows
            .sort_by_key(|r| labels.iter().position(|l| *l == r.0).unwrap_or(usize::MAX));
        let mut md = self.header.clone();
        for (_, l) in &self.rows {
            writeln!(md, "{l}").unwrap();
        }
        std::fs::write(&self.path, &md).expect("writable");
    }
}
