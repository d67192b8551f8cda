//! The description's parts that are no route's: the document's head
//! (`info`, `tags`), the shared components (parameters, headers, responses,
//! security schemes), the paths the Worker's code does not serve (`/`, a
//! static asset), and what any other path answers (`x-other-paths`).

use schemars::SchemaGenerator;
use serde_json::{json, Value};

use super::with_ref;

/// The document's `info`.
pub(super) fn info(_g: &mut SchemaGenerator) -> Value {
    json!({
        "title": "promocodes",
        "version": "1",
        "summary": "Promotion codes whose usage caps hold under concurrency: quotes, holds, captures and releases at the edge.",
        "description": "The promocodes edge Worker (worker/src/, routes.rs its route table): one SQLite-backed Durable Object per code decides every hold and capture with a compare-and-set; every rule is the core crate's.\n\n**Errors** are `application/problem+json` (RFC 9457): `{type, title, status, detail}`, `type` one of `ProblemType` (each fixes `title` and `status`; see the `*Problem` schemas), plus `rejection`, `quote` and `current` on `/problems/rejected`. Bad input is a 4xx, never a 500, and records nothing.\n\n**Methods:** a method a path does not list answers 405 `method_not_allowed` with `Allow` as in the path's `x-allow`. `HEAD` answers wherever `GET` does, without a body.\n\n**Other paths:** any other path under `/v1/` or `/demo/` answers 404 `not_found` whatever the method (`x-other-paths`); the `/demo/*` paths exist only when the `DEMO` variable is set (`x-demo-only`), and answer so otherwise. Paths outside `/v1/` and `/demo/` are the static assets. `x-planned` marks a path described before it is served; `x-test-only` one that exists only in test builds.\n\n**Auth:** admin routes take `Authorization: Bearer <ADMIN_TOKEN>`, holds, captures and releases `Bearer <CAPTURE_TOKEN>`; lookups and quotes are public, rate limited per address and answer CORS for the origins in `ALLOWED_ORIGINS`. **Body limits:** 1 MiB for a definition, 64 KiB for baskets (quotes, holds, captures, the demo routes) and Stripe webhooks, 16 KiB elsewhere; over it, 413 as soon as the limit is passed.",
        "license": {"name": "MIT OR Apache-2.0", "identifier": "MIT OR Apache-2.0"},
    })
}

/// The document's `tags`, one a group of routes.
pub(super) fn tags(_g: &mut SchemaGenerator) -> Value {
    json!([
        {"name": "public", "description": "Lookups and quotes: public, rate limited, CORS."},
        {
            "name": "lifecycle",
            "description": "Holds, captures and releases: the shop's server, with `CAPTURE_TOKEN`.",
        },
        {
            "name": "admin",
            "description": "Definitions, the catalog, history and figures, with `ADMIN_TOKEN`.",
        },
        {"name": "demo", "description": "The demo checkout's server side; only with `DEMO` set."},
        {"name": "webhooks", "description": "Payment providers' webhooks (planned)."},
        {"name": "meta", "description": "This description, and test builds' checks."},
        {"name": "page", "description": "The static demo page."},
    ])
}

/// What any other path under `/v1/` or `/demo/` answers (`x-other-paths`).
pub(super) fn other_paths(_g: &mut SchemaGenerator) -> Value {
    json!({
        "description": "Any other path under `/v1/` or `/demo/` (and the `x-demo-only` paths when `DEMO` is not set), whatever the method.",
        "prefixes": ["/v1", "/demo"],
        "response": {"$ref": "#/components/responses/NoSuchRoute"},
    })
}

/// The paths served by the static assets, not by the Worker's code.
pub(super) fn static_paths(_g: &mut SchemaGenerator) -> Value {
    json!({
        "/": {
            "x-allow": "GET, HEAD",
            "x-static-asset": true,
            "get": {
                "operationId": "getPage",
                "tags": ["page"],
                "summary": "The demo checkout page",
                "security": [{}],
                "description": "Served by the static assets (public/), not the Worker's code.",
                "responses": {
                    "200": {
                        "description": "The page.",
                        "content": {"text/html": {"schema": {"type": "string"}}},
                    },
                },
            },
            "head": {
                "operationId": "headPage",
                "tags": ["page"],
                "summary": "The demo checkout page (headers only)",
                "security": [{}],
                "description": "As `GET`, without a body.",
                "responses": {
                    "200": {
                        "description": "The page.",
                        "content": {"text/html": {"schema": {"type": "string"}}},
                    },
                },
            },
        },
    })
}

/// The components' `responses`.
pub(super) fn responses(g: &mut SchemaGenerator) -> Value {
    json!({
        "NoSuchRoute": {
            "description": "No such route.",
            "content": {
                "application/problem+json": {
                    "schema": with_ref::<promocodes::wire::ProblemDetails>(g, json!({
                        "type": "object",
                        "properties": {"type": {"enum": ["/problems/not_found"]}},
                    })),
                },
            },
        },
        "MethodNotAllowed": {
            "description": "The path exists, not for this method; `Allow` lists the methods it takes (the path's `x-allow`).",
            "content": {
                "application/problem+json": {
                    "schema": with_ref::<promocodes::wire::ProblemDetails>(g, json!({
                        "type": "object",
                        "properties": {"type": {"enum": ["/problems/method_not_allowed"]}},
                    })),
                },
            },
            "headers": {"Allow": {"$ref": "#/components/headers/Allow"}},
        },
    })
}

/// The components' `parameters`.
pub(super) fn parameters(_g: &mut SchemaGenerator) -> Value {
    json!({
        "code": {
            "name": "code",
            "in": "path",
            "required": true,
            "description": "The promo code, percent-decoded, then trimmed and upper-cased (`save10` and `SAVE10` are one code); a bad escape or a code the core refuses is a 400.",
            "schema": {"type": "string"},
        },
        "webhookId": {
            "name": "id",
            "in": "path",
            "required": true,
            "description": "The webhook endpoint's id: 1 to 64 letters, digits, `-` or `_`, never `stripe` (`/v1/webhooks/stripe` is Stripe's webhook: a literal path wins over `/v1/webhooks/{id}`).",
            "schema": {"type": "string", "pattern": "^[A-Za-z0-9_-]{1,64}$"},
        },
        "IdempotencyKey": {
            "name": "Idempotency-Key",
            "in": "header",
            "required": true,
            "description": "Names the redemption: 1 to 255 visible ASCII characters, trimmed of surrounding spaces and tabs. Use a fact of the payment (its PaymentIntent id), never one made at handling time. Without it: 400 `missing_idempotency_key`.",
            "schema": {"type": "string"},
        },
        "ChangeNote": {
            "name": "X-Change-Note",
            "in": "header",
            "required": false,
            "description": "The operator's note on this change, kept in the definition's change history (`GET …/changes`): text percent-encoded as UTF-8 (JavaScript's `encodeURIComponent`; plain ASCII text is itself), trimmed, at most 500 characters once decoded. A bad escape, bytes that are not UTF-8, a control character (a line break, a tab) or a longer note is a 400 `invalid_request` naming `X-Change-Note`, and nothing is written.",
            "schema": {"type": "string"},
        },
        "IfMatch": {
            "name": "If-Match",
            "in": "header",
            "required": false,
            "description": "Writes only if the stored definition still has one of these tags (`*`: any definition), compared strongly in the code's object in the same step as the write; otherwise 412 `precondition_failed` and nothing is written. Without it, the write is unconditional.",
            "schema": {"type": "string"},
        },
        "IfNoneMatch": {
            "name": "If-None-Match",
            "in": "header",
            "required": false,
            "description": "`*`: writes only if the code has no definition yet (a new code never replaces an existing one); otherwise 412 `precondition_failed` and nothing is written.",
            "schema": {"type": "string"},
        },
    })
}

/// The components' `headers`.
pub(super) fn headers(_g: &mut SchemaGenerator) -> Value {
    json!({
        "Allow": {
            "description": "The methods the route takes.",
            "required": true,
            "schema": {"type": "string"},
        },
        "RetryAfter": {
            "description": "Seconds to wait before retrying.",
            "required": true,
            "schema": {"type": "string", "pattern": "^[0-9]+$"},
        },
        "WWWAuthenticate": {
            "description": "The scheme to authenticate with.",
            "required": true,
            "schema": {"type": "string", "const": "Bearer"},
        },
        "Vary": {
            "description": "Every answer of a public route varies by `Origin` (CORS).",
            "required": true,
            "schema": {"type": "string", "pattern": "(^|,\\s*)Origin(\\s*,|$)"},
        },
        "AccessControlAllowOrigin": {
            "description": "The request's `Origin`, when it is listed in `ALLOWED_ORIGINS`.",
            "schema": {"type": "string"},
        },
        "AccessControlExposeHeaders": {
            "description": "With an allowed origin.",
            "schema": {"type": "string", "const": "Retry-After"},
        },
        "AccessControlAllowHeaders": {
            "description": "With an allowed origin.",
            "schema": {"type": "string", "const": "content-type"},
        },
        "AccessControlMaxAge": {
            "description": "With an allowed origin: seconds a browser may cache the preflight.",
            "schema": {"type": "string", "const": "600"},
        },
        "CacheControlLookup": {
            "description": "`no-cache` on an anonymous lookup: the browser asks again each time and the Worker answers from the edge cache, which keeps the lookup for up to 5 s (`public, max-age=5`), no longer than the code's next hold runs, and purges it when the code is redefined, switched off or archived and on the first hold, capture or release after it was cached (a code on several shards: kept for up to 1 s, as its shards' writes purge nothing); `no-store` on a lookup with a token (live counts).",
            "schema": {"type": "string", "enum": ["no-cache", "no-store"]},
        },
        "PromocodesCache": {
            "description": "On an anonymous lookup: `hit` when answered from the edge cache, `miss` when read from the code's object.",
            "schema": {"type": "string", "enum": ["hit", "miss"]},
        },
        "PromocodesOutcome": {
            "description": "On holds, captures and releases: the outcome the code's object decided, as JSON (`code`, `op`, `outcome`, a `rejection` or `problem`); the Worker logs it with the request's milliseconds.",
            "schema": {"type": "string"},
        },
        "ETag": {
            "description": "The definition's strong entity tag (a hash of the stored definition, quoted): send it back as `If-Match` on `PUT` or `PATCH` so the write lands only over the definition it was read from.",
            "required": true,
            "schema": {"type": "string", "pattern": "^\"[0-9a-f]{32}\"$"},
        },
        "ETagOptional": {
            "description": "With a valid token (the live lookup): the definition's strong entity tag, for `If-Match` on `PUT` or `PATCH`. Not sent on a buyer's (cached) lookup.",
            "schema": {"type": "string", "pattern": "^\"[0-9a-f]{32}\"$"},
        },
        "ETagCurrent": {
            "description": "The stored definition's tag now (absent when the code has no definition).",
            "schema": {"type": "string", "pattern": "^\"[0-9a-f]{32}\"$"},
        },
    })
}

/// The components' `securitySchemes`.
pub(super) fn security_schemes(_g: &mut SchemaGenerator) -> Value {
    json!({
        "admin": {
            "type": "http",
            "scheme": "bearer",
            "description": "`Authorization: Bearer <ADMIN_TOKEN>` (trimmed, compared in constant time).",
        },
        "capture": {
            "type": "http",
            "scheme": "bearer",
            "description": "`Authorization: Bearer <CAPTURE_TOKEN>`: the shop's server.",
        },
    })
}
