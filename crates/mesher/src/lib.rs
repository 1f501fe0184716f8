//! mesher
