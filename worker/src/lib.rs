//! placeholder: the Worker crate is being written.
