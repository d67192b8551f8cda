//! Events to the shop: the endpoints' signatures (Standard Webhooks 1.0).
//! The events themselves are the core's ([`promocodes::events`]).

pub mod signature;
