//! See [the module](super).
