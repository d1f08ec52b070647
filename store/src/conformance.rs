//! Backend-agnostic conformance suite (placeholder).
