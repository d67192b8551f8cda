//! The route table: every route's path pattern, method, handler and who may
//! call it, in [`ROUTES`]. The table drives the dispatch ([`serve`]), the
//! answer to a method a path does not take (405 with `Allow` derived from the
//! table, as axum's method router derives it), the CORS preflight of the
//! public routes, which answers carry CORS at all, and which routes take
//! only a JSON body ([`Handler::reads_json`]: anything else is a 415).

use worker::{Env, Method, Request, Response};

use crate::cors::Cors;
use crate::handlers::{self, Answer, DemoStep};
use crate::http::{authorize, require_json, Role};
use crate::problem::Problem;

#[cfg(all(test, not(target_arch = "wasm32")))]
mod operations;

/// Who may call a route.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Access {
    /// Anyone: rate limited per address, answered with CORS for the allowed
    /// origins (a code's lookup, a quote). A valid token lifts the limit.
    Public,
    /// Anyone, without CORS: the handler checks what the route needs (a
    /// webhook's signature, the demo's server token), or nothing (the description).
    Open,
    /// `Authorization: Bearer <ADMIN_TOKEN>`.
    Admin,
    /// `Authorization: Bearer <CAPTURE_TOKEN>`: holds, captures and releases,
    /// each logged when refused before the code's object decides it.
    Capture,
}

/// What answers a route.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Handler {
    /// `GET /v1/codes`: the catalog.
    ListCodes,
    /// `GET /v1/codes/{code}`: the public lookup.
    GetCode,
    /// `PUT /v1/codes/{code}`: define or replace.
    PutCode,
    /// `PATCH /v1/codes/{code}`: the kill switch.
    PatchCode,
    /// `DELETE /v1/codes/{code}`: archive.
    ArchiveCode,
    /// `GET /v1/codes/{code}/redemptions`: the history.
    Redemptions,
    /// `GET /v1/codes/{code}/stats`: the figures.
    Stats,
    /// `GET /v1/codes/{code}/changes`: the changes of its definition.
    Changes,
    /// `POST /v1/codes/{code}/tries`: the checkout page's report of a code tried (and refused).
    Tries,
    /// `GET /v1/campaigns`: the campaigns, as `GET /v1/codes` lists codes.
    ListCampaigns,
    /// `PUT /v1/campaigns/{id}`: define or replace a campaign.
    PutCampaign,
    /// `PATCH /v1/campaigns/{id}`: the campaign's kill switch.
    PatchCampaign,
    /// `DELETE /v1/campaigns/{id}`: archive the campaign.
    ArchiveCampaign,
    /// `GET /v1/campaigns/{id}`: its definition, usage and codes.
    GetCampaign,
    /// `POST /v1/campaigns/{id}/codes`: generate or import codes.
    AddCampaignCodes,
    /// `GET /v1/campaigns/{id}/codes`: a page of its codes.
    CampaignCodes,
    /// `GET /v1/campaigns/{id}/redemptions`: its history (every record of its codes), each with its code.
    CampaignRedemptions,
    /// `GET /v1/campaigns/{id}/stats`: its figures.
    CampaignStats,
    /// `GET /v1/campaigns/{id}/changes`: the changes of its definition.
    CampaignChanges,
    /// `GET /v1/automatic`: the active automatic promotions.
    Automatic,
    /// `POST /v1/quotes`.
    Quote,
    /// `POST /v1/holds`.
    Hold,
    /// `POST /v1/captures`.
    Capture,
    /// `POST /v1/releases`.
    Release,
    /// `POST /v1/webhooks/stripe`.
    StripeWebhook,
    /// `GET /v1/webhooks`: the shop's webhook endpoints.
    ListWebhooks,
    /// `PUT /v1/webhooks/{id}`: define or replace an endpoint.
    PutWebhook,
    /// `GET /v1/webhooks/{id}`: one endpoint.
    GetWebhook,
    /// `DELETE /v1/webhooks/{id}`: delete an endpoint.
    DeleteWebhook,
    /// `POST /v1/webhooks/{id}/rotate`: a new signing secret.
    RotateWebhook,
    /// `GET /v1/webhooks/{id}/deliveries`: an endpoint's deliveries.
    WebhookDeliveries,
    /// `POST /v1/webhooks/{id}/deliveries/{event_id}/retry`: send an event again.
    RetryDelivery,
    /// `GET /v1/openapi.json`.
    OpenApi,
    /// `POST /demo/{quote,hold,pay,cancel}`, only with `DEMO` set.
    Demo(DemoStep),
    /// `POST /v1/__conformance`: test builds only ([`TEST_ROUTES`]).
    Conformance,
    /// `GET /v1/__figures/{code}`: test builds only ([`TEST_ROUTES`]), when the code's object wrote its figures.
    FigureWrites,
}

impl Handler {
    /// Whether the route reads a JSON body: its `Content-Type` must say JSON
    /// (or the request have no body), checked once the caller is authorized
    /// and before the handler runs (see [`require_json`]). The Stripe
    /// webhook reads the raw body it verifies, whatever its type; the
    /// conformance route reads none.
    pub fn reads_json(self) -> bool {
        matches!(
            self,
            Handler::PutCode
                | Handler::PatchCode
                | Handler::PutCampaign
                | Handler::PatchCampaign
                | Handler::AddCampaignCodes
                | Handler::Quote
                | Handler::Tries
                | Handler::Hold
                | Handler::Capture
                | Handler::Release
                | Handler::PutWebhook
                | Handler::Demo(_)
        )
    }
}

/// One route: a path pattern (`{code}` matches one segment), a method, what
/// answers it and who may call it. `GET` routes answer `HEAD` too.
#[derive(Debug, PartialEq, Eq)]
pub struct Route {
    /// The path pattern, `/v1/codes/{code}`.
    pub path: &'static str,
    /// The method.
    pub method: Method,
    /// What answers it.
    pub handler: Handler,
    /// Who may call it.
    pub access: Access,
}

const fn route(path: &'static str, method: Method, handler: Handler, access: Access) -> Route {
    Route {
        path,
        method,
        handler,
        access,
    }
}

/// Every route of the Worker. Any other path under `/v1/` or `/demo/` is
/// 404 `not_found`; every path outside them is a static asset.
pub const ROUTES: &[Route] = &[
    route("/v1/codes", Method::Get, Handler::ListCodes, Access::Admin),
    route("/v1/codes/{code}", Method::Get, Handler::GetCode, Access::Public),
    route("/v1/codes/{code}", Method::Put, Handler::PutCode, Access::Admin),
    route("/v1/codes/{code}", Method::Patch, Handler::PatchCode, Access::Admin),
    route("/v1/codes/{code}", Method::Delete, Handler::ArchiveCode, Access::Admin),
    route(
        "/v1/codes/{code}/redemptions",
        Method::Get,
        Handler::Redemptions,
        Access::Admin,
    ),
    route("/v1/codes/{code}/stats", Method::Get, Handler::Stats, Access::Admin),
    route("/v1/codes/{code}/changes", Method::Get, Handler::Changes, Access::Admin),
    route("/v1/codes/{code}/tries", Method::Post, Handler::Tries, Access::Public),
    route("/v1/campaigns", Method::Get, Handler::ListCampaigns, Access::Admin),
    route("/v1/campaigns/{code}", Method::Put, Handler::PutCampaign, Access::Admin),
    route(
        "/v1/campaigns/{code}",
        Method::Patch,
        Handler::PatchCampaign,
        Access::Admin,
    ),
    route(
        "/v1/campaigns/{code}",
        Method::Delete,
        Handler::ArchiveCampaign,
        Access::Admin,
    ),
    route("/v1/campaigns/{code}", Method::Get, Handler::GetCampaign, Access::Admin),
    route(
        "/v1/campaigns/{code}/codes",
        Method::Post,
        Handler::AddCampaignCodes,
        Access::Admin,
    ),
    route(
        "/v1/campaigns/{code}/codes",
        Method::Get,
        Handler::CampaignCodes,
        Access::Admin,
    ),
    route(
        "/v1/campaigns/{code}/redemptions",
        Method::Get,
        Handler::CampaignRedemptions,
        Access::Admin,
    ),
    route(
        "/v1/campaigns/{code}/stats",
        Method::Get,
        Handler::CampaignStats,
        Access::Admin,
    ),
    route(
        "/v1/campaigns/{code}/changes",
        Method::Get,
        Handler::CampaignChanges,
        Access::Admin,
    ),
    route("/v1/automatic", Method::Get, Handler::Automatic, Access::Public),
    route("/v1/quotes", Method::Post, Handler::Quote, Access::Public),
    route("/v1/holds", Method::Post, Handler::Hold, Access::Capture),
    route("/v1/captures", Method::Post, Handler::Capture, Access::Capture),
    route("/v1/releases", Method::Post, Handler::Release, Access::Capture),
    route(
        "/v1/webhooks/stripe",
        Method::Post,
        Handler::StripeWebhook,
        Access::Open,
    ),
    route("/v1/webhooks", Method::Get, Handler::ListWebhooks, Access::Admin),
    route("/v1/webhooks/{id}", Method::Put, Handler::PutWebhook, Access::Admin),
    route("/v1/webhooks/{id}", Method::Get, Handler::GetWebhook, Access::Admin),
    route(
        "/v1/webhooks/{id}",
        Method::Delete,
        Handler::DeleteWebhook,
        Access::Admin,
    ),
    route(
        "/v1/webhooks/{id}/rotate",
        Method::Post,
        Handler::RotateWebhook,
        Access::Admin,
    ),
    route(
        "/v1/webhooks/{id}/deliveries",
        Method::Get,
        Handler::WebhookDeliveries,
        Access::Admin,
    ),
    route(
        "/v1/webhooks/{id}/deliveries/{event_id}/retry",
        Method::Post,
        Handler::RetryDelivery,
        Access::Admin,
    ),
    route("/v1/openapi.json", Method::Get, Handler::OpenApi, Access::Open),
    route(
        "/demo/quote",
        Method::Post,
        Handler::Demo(DemoStep::Quote),
        Access::Open,
    ),
    route("/demo/hold", Method::Post, Handler::Demo(DemoStep::Hold), Access::Open),
    route("/demo/pay", Method::Post, Handler::Demo(DemoStep::Pay), Access::Open),
    route(
        "/demo/cancel",
        Method::Post,
        Handler::Demo(DemoStep::Cancel),
        Access::Open,
    ),
];

/// The routes of test builds only (feature `conformance`): the table's rows
/// after [`ROUTES`] there, described (`x-test-only`) in every build.
pub const TEST_ROUTES: &[Route] = &[
    route("/v1/__conformance", Method::Post, Handler::Conformance, Access::Admin),
    route(
        "/v1/__figures/{code}",
        Method::Get,
        Handler::FigureWrites,
        Access::Admin,
    ),
];

/// Every route this build serves: [`ROUTES`], and [`TEST_ROUTES`] in test builds.
pub fn served() -> impl Iterator<Item = &'static Route> {
    let tests: &[Route] = if cfg!(feature = "conformance") {
        TEST_ROUTES
    } else {
        &[]
    };
    ROUTES.iter().chain(tests)
}

/// What the table makes of a request's path and method.
#[derive(Debug, PartialEq, Eq)]
pub enum Resolved<'p> {
    /// A route, with the path's `{code}` segment if it has one.
    Route(&'static Route, Option<&'p str>),
    /// `OPTIONS` on a public path: the CORS preflight, with its public methods.
    Preflight(String),
    /// The path exists, not for this method: the `Allow` value.
    MethodNotAllowed(String),
    /// Any other path under `/v1/` or `/demo/`.
    NotFound,
    /// Everything else: the static assets.
    Asset,
}

impl Resolved<'_> {
    /// Whether the answer carries CORS: a public route, or its preflight.
    pub fn is_public(&self) -> bool {
        match self {
            Resolved::Route(route, _) => route.access == Access::Public,
            Resolved::Preflight(_) => true,
            _ => false,
        }
    }
}

/// The last `{...}` segment of `path` (`{code}`, `{id}`, `{event_id}`) if it
/// matches `pattern`, or `Some(None)` for a match without one; `None` when it
/// does not match. A handler of a path of two (the retry of a delivery)
/// reads the other from the path.
fn matches<'p>(pattern: &str, path: &'p str) -> Option<Option<&'p str>> {
    let mut code = None;
    let mut wanted = pattern.split('/');
    let mut given = path.split('/');
    loop {
        match (wanted.next(), given.next()) {
            (None, None) => return Some(code),
            (Some(w), Some(segment)) if w.starts_with('{') => code = Some(segment),
            (Some(w), Some(g)) if w == g => {}
            _ => return None,
        }
    }
}

/// Methods as an `Allow` value: each once, `HEAD` with `GET`, in alphabetical order.
pub(crate) fn allow(methods: impl Iterator<Item = Method>) -> String {
    let mut names: Vec<&'static str> = Vec::new();
    for method in methods {
        let mut add = |name: &'static str| {
            if !names.contains(&name) {
                names.push(name);
            }
        };
        if method == Method::Get {
            add("HEAD");
        }
        add(method_name(&method));
    }
    names.sort_unstable();
    names.join(", ")
}

fn method_name(method: &Method) -> &'static str {
    match method {
        Method::Head => "HEAD",
        Method::Get => "GET",
        Method::Post => "POST",
        Method::Put => "PUT",
        Method::Patch => "PATCH",
        Method::Delete => "DELETE",
        Method::Options => "OPTIONS",
        Method::Connect => "CONNECT",
        Method::Trace => "TRACE",
        Method::Report => "REPORT",
    }
}

/// Resolves `method` on `path` against [`ROUTES`] (the demo routes only when `demo`).
pub fn resolve<'p>(path: &'p str, method: &Method, demo: bool) -> Resolved<'p> {
    if !(path.starts_with("/v1/") || path.starts_with("/demo/")) {
        return Resolved::Asset;
    }
    let mut candidates: Vec<(&'static Route, Option<&'p str>)> = served()
        .filter(|route| demo || !route.path.starts_with("/demo/"))
        .filter_map(|route| matches(route.path, path).map(|code| (route, code)))
        .collect();
    // A literal path wins over a pattern (as matchit's static segments do):
    // `/v1/webhooks/stripe` is Stripe's webhook only, never the endpoint `stripe`.
    if candidates.iter().any(|(route, _)| !route.path.contains('{')) {
        candidates.retain(|(route, _)| !route.path.contains('{'));
    }
    if candidates.is_empty() {
        return Resolved::NotFound;
    }
    let wanted = if *method == Method::Head { &Method::Get } else { method };
    if let Some(&(route, code)) = candidates.iter().find(|(route, _)| &route.method == wanted) {
        return Resolved::Route(route, code);
    }
    let public = || candidates.iter().filter(|(r, _)| r.access == Access::Public);
    if *method == Method::Options && public().next().is_some() {
        return Resolved::Preflight(allow(public().map(|(r, _)| r.method.clone())));
    }
    let mut methods: Vec<Method> = candidates.iter().map(|(r, _)| r.method.clone()).collect();
    if public().next().is_some() {
        methods.push(Method::Options);
    }
    Resolved::MethodNotAllowed(allow(methods.into_iter()))
}

/// Answers a request the table resolved (not an asset): checks who may call
/// the route, then runs its handler.
pub async fn serve(resolved: Resolved<'_>, req: Request, env: &Env, cors: Option<&Cors>) -> Answer {
    let (route, code) = match resolved {
        Resolved::Route(route, code) => (route, code.unwrap_or_default()),
        Resolved::Preflight(methods) => {
            return cors.map_or_else(|| Cors::default().preflight(&methods), |c| c.preflight(&methods))
        }
        Resolved::MethodNotAllowed(allow) => return Err(Problem::MethodNotAllowed { allow }),
        Resolved::NotFound | Resolved::Asset => return Err(Problem::NotFound),
    };
    let req = &req;
    match route.access {
        Access::Admin => authorize(req, env, Role::Admin)?,
        Access::Capture => {
            let op = match route.handler {
                Handler::Hold => "hold",
                Handler::Capture => "capture",
                _ => "release",
            };
            return handlers::checkout::logged_if_refused(op, async {
                authorize(req, env, Role::Capture)?;
                handle(route.handler, req, env, code).await
            })
            .await;
        }
        Access::Public | Access::Open => {}
    }
    handle(route.handler, req, env, code).await
}

async fn handle(handler: Handler, req: &Request, env: &Env, code: &str) -> Answer {
    use handlers::{campaigns, checkout, codes, demo};
    if handler.reads_json() {
        require_json(req)?;
    }
    match handler {
        Handler::ListCodes => codes::list(req, env).await,
        Handler::GetCode => codes::get(req, env, code).await,
        Handler::PutCode => codes::put(req, env, code).await,
        Handler::PatchCode => codes::patch(req, env, code).await,
        Handler::ArchiveCode => codes::archive(req, env, code).await,
        Handler::Redemptions => codes::admin_read(req, env, code, crate::protocol::Call::Redemptions).await,
        Handler::Stats => codes::admin_read(req, env, code, crate::protocol::Call::Stats).await,
        Handler::Changes => codes::admin_read(req, env, code, crate::protocol::Call::Changes).await,
        Handler::Tries => checkout::tries(req, env, code).await,
        Handler::ListCampaigns => campaigns::list(req, env).await,
        Handler::PutCampaign => campaigns::put(req, env, code).await,
        Handler::PatchCampaign => campaigns::patch(req, env, code).await,
        Handler::ArchiveCampaign => campaigns::archive(req, env, code).await,
        Handler::GetCampaign => campaigns::get(env, code).await,
        Handler::AddCampaignCodes => campaigns::add_codes(req, env, code).await,
        Handler::CampaignCodes => campaigns::list_codes(req, env, code).await,
        Handler::CampaignRedemptions => campaigns::admin_read(req, env, code, crate::protocol::Call::Redemptions).await,
        Handler::CampaignStats => campaigns::admin_read(req, env, code, crate::protocol::Call::Stats).await,
        Handler::CampaignChanges => campaigns::admin_read(req, env, code, crate::protocol::Call::Changes).await,
        Handler::Automatic => handlers::automatic::get(req, env).await,
        Handler::Quote => checkout::quote(req, env).await,
        Handler::Hold => checkout::keyed(req, env, promocodes::api::BasketRequestKind::Hold).await,
        Handler::Capture => checkout::keyed(req, env, promocodes::api::BasketRequestKind::Capture).await,
        Handler::Release => checkout::release(req, env).await,
        Handler::StripeWebhook => handlers::webhooks::handle(req, env).await,
        Handler::ListWebhooks => handlers::endpoints::list(env).await,
        Handler::PutWebhook => handlers::endpoints::put(req, env, code).await,
        Handler::GetWebhook => handlers::endpoints::get(env, code).await,
        Handler::DeleteWebhook => handlers::endpoints::delete(env, code).await,
        Handler::RotateWebhook => handlers::endpoints::rotate(env, code).await,
        Handler::WebhookDeliveries => handlers::endpoints::deliveries(req, env, code).await,
        // `code` is the last segment of the path, the event's id (see the handler).
        Handler::RetryDelivery => handlers::endpoints::retry(req, env, code).await,
        Handler::OpenApi => handlers::openapi(env).await,
        Handler::Demo(step) => demo::handle(req, env, step).await,
        #[cfg(feature = "conformance")]
        Handler::Conformance => demo::conformance(env).await,
        #[cfg(feature = "conformance")]
        Handler::FigureWrites => codes::admin_read(req, env, code, crate::protocol::Call::FigureWrites).await,
        // Not in this build's table: never resolved.
        #[cfg(not(feature = "conformance"))]
        Handler::Conformance | Handler::FigureWrites => Err(Problem::NotFound),
    }
}

/// Whether the demo routes are on: a non-empty `DEMO` variable other than `0` or `false`.
pub fn demo_enabled(env: &Env) -> bool {
    env.var("DEMO")
        .map(|v| v.to_string())
        .is_ok_and(|v| !v.is_empty() && v != "0" && !v.eq_ignore_ascii_case("false"))
}

/// The answer to a resolved request, or its problem, as HTTP.
///
/// # Errors
///
/// A runtime error building the response.
pub fn into_response(answer: Answer) -> worker::Result<Response> {
    answer.or_else(Problem::into_response)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn handler(path: &str, method: Method, demo: bool) -> Option<(Handler, Option<&str>)> {
        match resolve(path, &method, demo) {
            Resolved::Route(route, code) => Some((route.handler, code)),
            _ => None,
        }
    }

    #[test]
    fn paths_name_routes() {
        assert_eq!(
            handler("/v1/codes/SAVE10", Method::Get, false),
            Some((Handler::GetCode, Some("SAVE10")))
        );
        assert_eq!(
            handler("/v1/codes/SAVE%2010", Method::Head, false),
            Some((Handler::GetCode, Some("SAVE%2010")))
        );
        assert_eq!(
            handler("/v1/codes/X/redemptions", Method::Get, false),
            Some((Handler::Redemptions, Some("X")))
        );
        assert_eq!(
            handler("/v1/codes/X/stats", Method::Get, false),
            Some((Handler::Stats, Some("X")))
        );
        assert_eq!(
            handler("/v1/codes", Method::Get, false),
            Some((Handler::ListCodes, None))
        );
        assert_eq!(handler("/v1/quotes", Method::Post, false), Some((Handler::Quote, None)));
        assert_eq!(
            handler("/v1/captures", Method::Post, false),
            Some((Handler::Capture, None))
        );
        assert_eq!(handler("/v1/holds", Method::Post, false), Some((Handler::Hold, None)));
        assert_eq!(
            handler("/v1/releases", Method::Post, false),
            Some((Handler::Release, None))
        );
        assert_eq!(
            handler("/v1/openapi.json", Method::Get, false),
            Some((Handler::OpenApi, None))
        );
        assert_eq!(
            handler("/demo/pay", Method::Post, true),
            Some((Handler::Demo(DemoStep::Pay), None))
        );
        assert_eq!(
            handler("/v1/webhooks/shop", Method::Put, false),
            Some((Handler::PutWebhook, Some("shop")))
        );
        assert_eq!(
            handler("/v1/webhooks/stripe", Method::Post, false),
            Some((Handler::StripeWebhook, None)),
            "the literal path wins"
        );
        assert_eq!(
            resolve("/v1/webhooks/stripe", &Method::Put, false),
            Resolved::MethodNotAllowed("POST".to_owned()),
            "no endpoint is called stripe"
        );
        assert_eq!(resolve("/demo/quote", &Method::Post, false), Resolved::NotFound);
        assert_eq!(resolve("/v1/openapi.json/x", &Method::Get, false), Resolved::NotFound);
        assert_eq!(resolve("/v1/nope", &Method::Get, true), Resolved::NotFound);
        assert_eq!(resolve("/v1/codes/A/B/C", &Method::Get, true), Resolved::NotFound);
        assert_eq!(resolve("/", &Method::Get, true), Resolved::Asset);
        assert_eq!(resolve("/app.js", &Method::Get, true), Resolved::Asset);
    }

    #[test]
    fn allow_is_derived_from_the_table() {
        let allowed = |path: &str| match resolve(path, &Method::Trace, true) {
            Resolved::MethodNotAllowed(allow) => allow,
            other => panic!("{path}: {other:?}"),
        };
        assert_eq!(allowed("/v1/codes/A"), "DELETE, GET, HEAD, OPTIONS, PATCH, PUT");
        assert_eq!(allowed("/v1/codes"), "GET, HEAD");
        assert_eq!(allowed("/v1/codes/A/stats"), "GET, HEAD");
        assert_eq!(allowed("/v1/quotes"), "OPTIONS, POST");
        assert_eq!(allowed("/v1/holds"), "POST");
        assert_eq!(allowed("/v1/webhooks/stripe"), "POST");
        assert_eq!(allowed("/v1/webhooks/shop"), "DELETE, GET, HEAD, PUT");
        assert_eq!(allowed("/v1/webhooks/shop/rotate"), "POST");
        assert_eq!(allowed("/v1/openapi.json"), "GET, HEAD");
        assert_eq!(allowed("/demo/cancel"), "POST");
        assert_eq!(
            resolve("/v1/codes/A", &Method::Options, false),
            Resolved::Preflight("GET, HEAD".to_owned())
        );
        assert_eq!(
            resolve("/v1/quotes", &Method::Options, false),
            Resolved::Preflight("POST".to_owned())
        );
        assert_eq!(
            resolve("/v1/holds", &Method::Options, false),
            Resolved::MethodNotAllowed("POST".to_owned())
        );
    }

    #[test]
    fn the_description_has_every_route_with_its_methods_and_allow_and_no_other() {
        let doc: serde_json::Value = serde_json::from_str(crate::handlers::OPENAPI).expect("docs/openapi.json is JSON");
        let paths = doc["paths"].as_object().expect("paths");
        let templates: std::collections::BTreeSet<&str> = ROUTES.iter().map(|r| r.path).collect();
        for template in &templates {
            let item = &paths
                .get(*template)
                .unwrap_or_else(|| panic!("docs/openapi.json has no {template}"));
            let served: std::collections::BTreeSet<String> = ROUTES
                .iter()
                .filter(|r| r.path == *template)
                .map(|r| method_name(&r.method).to_ascii_lowercase())
                .collect();
            let described: std::collections::BTreeSet<String> = ["get", "put", "post", "patch", "delete"]
                .into_iter()
                .filter(|m| item.get(*m).is_some())
                .map(str::to_owned)
                .collect();
            assert_eq!(described, served, "{template}: the methods the Worker handles");
            let path = template.replace("{code}", "A");
            let Resolved::MethodNotAllowed(allow) = resolve(&path, &Method::Trace, true) else {
                panic!("{template}: TRACE is not a method of any route");
            };
            assert_eq!(item["x-allow"], allow.as_str(), "{template}: the Allow of its 405");
            assert!(
                item.get("x-planned").is_none(),
                "{template} is served: it is not planned"
            );
        }
        for (template, item) in paths {
            let elsewhere = ["x-planned", "x-static-asset"].iter().any(|k| item.get(*k).is_some())
                || (item.get("x-test-only").is_some() && !cfg!(feature = "conformance"));
            assert!(
                elsewhere || templates.contains(template.as_str()),
                "{template} is in the description but not in the route table"
            );
        }
    }

    #[test]
    fn every_route_with_a_body_reads_json_but_the_webhook() {
        for route in ROUTES.iter().chain(TEST_ROUTES) {
            let takes_body = matches!(route.method, Method::Post | Method::Put | Method::Patch);
            // The Stripe webhook reads its raw body; the conformance run and a rotation read none.
            let raw = matches!(
                route.handler,
                Handler::StripeWebhook | Handler::Conformance | Handler::RotateWebhook | Handler::RetryDelivery
            );
            assert_eq!(
                route.handler.reads_json(),
                takes_body && !raw,
                "{:?} {}",
                route.method,
                route.path
            );
        }
    }

    #[test]
    fn only_lookups_and_quotes_are_public() {
        for method in [Method::Get, Method::Head, Method::Options] {
            assert!(resolve("/v1/codes/A", &method, false).is_public(), "{method:?}");
        }
        assert!(!resolve("/v1/codes/A", &Method::Put, false).is_public());
        assert!(resolve("/v1/quotes", &Method::Post, false).is_public());
        assert!(resolve("/v1/quotes", &Method::Options, false).is_public());
        for path in [
            "/v1/codes",
            "/v1/codes/A/redemptions",
            "/v1/codes/A/stats",
            "/v1/captures",
            "/v1/holds",
            "/v1/releases",
            "/demo/pay",
            "/demo/quote",
            "/",
        ] {
            for method in [Method::Get, Method::Post, Method::Options] {
                assert!(!resolve(path, &method, true).is_public(), "{method:?} {path}");
            }
        }
    }
}
