//! Hand-checked Faraday positions.
