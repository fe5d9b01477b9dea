//! Tests of the search layer.
