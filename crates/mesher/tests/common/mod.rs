//! Helpers shared by the mesher's integration tests.

pub(crate) mod culling;
