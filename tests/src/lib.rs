//! Helpers for black-box tests.
