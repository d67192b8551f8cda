//! The per-address limit on the public routes, counted by Cloudflare's Rate
//! Limiting binding [`PUBLIC_LIMITER`] (`[[ratelimits]]` in `wrangler.toml`,
//! 60 requests per 10 s by default). The key is the client address
//! (`CF-Connecting-IP`), parsed: an IPv4 address as it is, an IPv6 address
//! by its /64 (one client holds a whole /64 and could rotate through it), so
//! that an address written another way is the same key (see [`key`]).

use std::net::{IpAddr, Ipv6Addr};

use worker::{Env, Request};

use crate::http::client_address;
use crate::limits::{PUBLIC_LIMITER, PUBLIC_RATE_PERIOD_SECONDS};
use crate::problem::Problem;

/// How many leading bits of an IPv6 address name one client: a /64, the
/// block a provider gives one subscriber (or one interface's SLAAC range).
pub const IPV6_CLIENT_PREFIX: u8 = 64;

/// The one key shared by every request without a `CF-Connecting-IP` (no
/// edge in front: local runs, tests).
pub const NO_ADDRESS_KEY: &str = "unknown";

/// The one key shared by every request whose `CF-Connecting-IP` is not an
/// IP address.
pub const UNPARSED_KEY: &str = "unparsed";

/// The limit's key for a client address (`CF-Connecting-IP`, trimmed):
/// an IPv4 address in its usual form (`192.0.2.7`, also when written as an
/// IPv4-mapped IPv6 address, `::ffff:192.0.2.7`), an IPv6 address as its
/// /64 (`2001:db8:1:2::/64`), [`UNPARSED_KEY`] for anything else and
/// [`NO_ADDRESS_KEY`] for no address.
pub fn key(address: Option<&str>) -> String {
    let Some(address) = address else {
        return NO_ADDRESS_KEY.to_owned();
    };
    match address.parse::<IpAddr>() {
        Ok(IpAddr::V4(v4)) => v4.to_string(),
        Ok(IpAddr::V6(v6)) => match v6.to_ipv4_mapped() {
            Some(v4) => v4.to_string(),
            None => {
                let mask = u128::MAX << (128 - u32::from(IPV6_CLIENT_PREFIX));
                let network = Ipv6Addr::from(u128::from(v6) & mask);
                format!("{network}/{IPV6_CLIENT_PREFIX}")
            }
        },
        Err(_) => UNPARSED_KEY.to_owned(),
    }
}

/// Counts this request against its client's key ([`key`]).
///
/// # Errors
///
/// [`Problem::TooManyRequests`] over the limit; [`Problem::Misconfigured`]
/// when the binding is missing.
pub async fn check(req: &Request, env: &Env) -> Result<(), Problem> {
    let key = key(client_address(req)?.as_deref());
    let limiter = env
        .rate_limiter(PUBLIC_LIMITER)
        .map_err(|_| Problem::Misconfigured(PUBLIC_LIMITER))?;
    if limiter.limit(key).await?.success {
        Ok(())
    } else {
        Err(Problem::TooManyRequests {
            retry_after: PUBLIC_RATE_PERIOD_SECONDS,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::{key, NO_ADDRESS_KEY, UNPARSED_KEY};

    #[test]
    fn ipv4_addresses_are_their_own_key() {
        assert_eq!(key(Some("192.0.2.7")), "192.0.2.7");
        assert_ne!(key(Some("192.0.2.7")), key(Some("192.0.2.8")));
    }

    #[test]
    fn an_ipv4_mapped_ipv6_address_is_the_ipv4_address() {
        for written in [
            "::ffff:192.0.2.7",
            "::FFFF:192.0.2.7",
            "::ffff:c000:207",
            "0:0:0:0:0:ffff:c000:0207",
        ] {
            assert_eq!(key(Some(written)), "192.0.2.7", "{written}");
        }
    }

    #[test]
    fn ipv6_addresses_are_keyed_by_their_64() {
        let one = key(Some("2001:db8:1:2::1"));
        assert_eq!(one, "2001:db8:1:2::/64");
        for same in [
            "2001:db8:1:2:ffff:ffff:ffff:ffff",
            "2001:0DB8:0001:0002:0:0:0:7",
            "2001:db8:1:2:a:b:c:d",
        ] {
            assert_eq!(key(Some(same)), one, "{same}");
        }
        assert_eq!(key(Some("2001:db8:1:3::1")), "2001:db8:1:3::/64");
        assert_eq!(key(Some("::1")), "::/64");
        // Not mapped, so not an IPv4 address: the deprecated IPv4-compatible form stays IPv6.
        assert_eq!(key(Some("::192.0.2.7")), "::/64");
    }

    #[test]
    fn what_is_not_an_address_shares_one_key() {
        for junk in [
            "",
            "unknown",
            "192.0.2.7:443",
            "[2001:db8::1]",
            "192.0.2",
            "192.0.2.007",
            "2001:db8::1%eth0",
            "x",
        ] {
            assert_eq!(key(Some(junk)), UNPARSED_KEY, "{junk:?}");
        }
        assert_eq!(key(None), NO_ADDRESS_KEY);
    }
}
