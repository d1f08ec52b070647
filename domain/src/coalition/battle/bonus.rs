//! (to be written: see decide.rs)
