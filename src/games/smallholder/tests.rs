//! Hand-checked Smallholder positions.
