//! The conformance suite against the PostgreSQL backend, each case in a schema of its own on a
//! throwaway cluster (`herald_store::conformance::cluster`).

herald_store::conformance_suite!(optional: herald_store::conformance::postgres);
