//! Events to the shop: the endpoints (`endpoints`: what one may be) and their
//! signatures (`signature`, Standard Webhooks 1.0).
//! The events themselves are the core's ([`promocodes::events`]).

pub mod endpoints;
pub mod signature;
