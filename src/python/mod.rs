//! Python bindings (filled in next).
