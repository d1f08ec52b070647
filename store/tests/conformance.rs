//! The conformance suite against the sled backend.

herald_store::conformance_suite!(herald_store::conformance::sled);
