//! Hand-checked Subsume positions.
use super::*;
