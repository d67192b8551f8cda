//! CORS for the public routes only (`GET`/`HEAD /v1/codes/{code}`,
//! `POST /v1/quotes`): a browser on an origin listed in `ALLOWED_ORIGINS`
//! (comma-separated; empty means same origin only) may call them. Capture,
//! hold, release and admin routes are server to server and never answer CORS.

use worker::{Env, Headers, Request, Response};

use crate::limits::CORS_MAX_AGE_SECONDS;
use crate::problem::Problem;

/// The variable listing the origins allowed to call the public routes.
pub const ALLOWED_ORIGINS: &str = "ALLOWED_ORIGINS";

/// The request headers a browser may send to a public route.
pub const ALLOWED_HEADERS: &str = "content-type";

/// Whether `origin` is in the comma-separated `list` (exact, ASCII case-insensitive).
pub fn is_allowed(list: &str, origin: &str) -> bool {
    !origin.is_empty()
        && list
            .split(',')
            .map(str::trim)
            .any(|allowed| !allowed.is_empty() && allowed.eq_ignore_ascii_case(origin))
}

/// The CORS answer for one request on a public route.
#[derive(Debug, Default)]
pub struct Cors {
    /// The request's `Origin`, when it is allowed.
    origin: Option<String>,
}

impl Cors {
    /// Reads the request's `Origin` against `ALLOWED_ORIGINS`.
    ///
    /// # Errors
    ///
    /// Only a runtime error reading the headers.
    pub fn for_request(req: &Request, env: &Env) -> Result<Cors, Problem> {
        let list = env.var(ALLOWED_ORIGINS).map(|v| v.to_string()).unwrap_or_default();
        let origin = req.headers().get("origin")?.filter(|o| is_allowed(&list, o));
        Ok(Cors { origin })
    }

    /// The answer to `OPTIONS` on a public route that takes `methods`:
    /// 204 with `Allow`, and for an allowed origin the preflight headers.
    ///
    /// # Errors
    ///
    /// A runtime error building the response.
    pub fn preflight(&self, methods: &str) -> Result<Response, Problem> {
        let headers = Headers::new();
        headers.set("allow", methods)?;
        if self.origin.is_some() {
            headers.set("access-control-allow-methods", methods)?;
            headers.set("access-control-allow-headers", ALLOWED_HEADERS)?;
            headers.set("access-control-max-age", &CORS_MAX_AGE_SECONDS.to_string())?;
        }
        Ok(Response::empty()?.with_status(204).with_headers(headers))
    }

    /// Adds `Vary: Origin` to a public answer and, for an allowed origin,
    /// `Access-Control-Allow-Origin`. The headers are copied first: an
    /// answer fetched from a Durable Object has immutable headers.
    ///
    /// # Errors
    ///
    /// A runtime error copying the headers.
    pub fn apply(&self, response: Response) -> Result<Response, Problem> {
        let headers = Headers::new();
        for (name, value) in response.headers().entries() {
            headers.append(&name, &value)?;
        }
        headers.append("vary", "Origin")?;
        if let Some(origin) = &self.origin {
            headers.set("access-control-allow-origin", origin)?;
            headers.set("access-control-expose-headers", "Retry-After")?;
        }
        Ok(response.with_headers(headers))
    }
}

#[cfg(test)]
mod tests {
    use super::is_allowed;

    #[test]
    fn only_listed_origins_are_allowed() {
        let list = "https://shop.example, https://www.shop.example,";
        assert!(is_allowed(list, "https://shop.example"));
        assert!(is_allowed(list, "https://WWW.shop.example"));
        assert!(!is_allowed(list, "https://evil.example"));
        assert!(!is_allowed(list, "https://shop.example.evil.example"));
        assert!(!is_allowed(list, ""));
        assert!(!is_allowed("", "https://shop.example"));
        assert!(!is_allowed("", ""));
        assert!(!is_allowed(list, "null"));
    }
}
