//! See [the module](super).
//!
//! The catalog is the Worker's one Durable Object that knows every code and
//! campaign ever defined, and indexes payments under their codes. The
//! Worker asks it with a [`CatalogCall`]: each call is a `POST` to its
//! [`CatalogRoute::path`], its body the call's value as JSON, and the
//! catalog answers the type its variant names.

use serde::{Deserialize, Serialize};

use super::{DeliveryPage, DeliveryRecord, EventRef, WebhookDisable, WebhookId, WebhookRotation, WebhookWrite};

/// A definition change or a question about one code or campaign:
/// `{"code": "SAVE10", "archived": false}`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Change {
    /// The normalised code (a campaign's id, for the campaign calls).
    pub code: String,
    /// Whether it is archived after the change (`false` when asking).
    pub archived: bool,
}

/// A page request of the codes or the campaigns in the catalog, from the
/// listing's `?prefix=&after=&limit=&archived=`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Page {
    /// Only codes (or campaign ids) starting with this.
    pub prefix: String,
    /// Only codes after this one (the previous page's `next`).
    pub after: String,
    /// At most this many.
    pub limit: u32,
    /// Archived ones too.
    pub archived: bool,
}

/// One code as the catalog knows it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Entry {
    /// The normalised code.
    pub code: String,
    /// A definition change was started and not yet confirmed.
    pub pending: bool,
    /// Archived (as last confirmed).
    pub archived: bool,
    /// The campaign the code belongs to, if any: its object is the campaign's.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub campaign: Option<String>,
}

/// One page of a listing and whether more follow, written as a pair:
/// `[[...], true]`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Listed<T>(
    /// The page's items, in order.
    pub Vec<T>,
    /// Whether more follow this page.
    pub bool,
);

/// Codes of a campaign to register, by one call:
/// `{"campaign": "BF", "batch": "bf-batch-1", "codes": ["BF-K7PQ-X2M9", ...]}`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Registration {
    /// The campaign's id.
    pub campaign: String,
    /// The call's `Idempotency-Key`: its retry finds its codes its own.
    pub batch: String,
    /// Its new codes, normalised.
    pub codes: Vec<String>,
}

/// A call's codes to drop from the catalog (the campaign refused them at
/// commit): `{"campaign": "BF", "batch": "bf-batch-1"}`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Unregistration {
    /// The campaign's id.
    pub campaign: String,
    /// The call's `Idempotency-Key`.
    pub batch: String,
}

/// The catalog's answer to a [`Registration`]: `{"taken": null}` when every
/// code was registered, else the first code that exists already (as a plain
/// code or another campaign's), and then none was.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Registered {
    /// The code that exists already, if any.
    pub taken: Option<String>,
}

/// A payment and the code it was captured for (so that a refund that does
/// not name the code finds it): `{"payment": "pi_...", "code": "SAVE10"}`;
/// for a stack, its codes joined by commas, in the order they apply
/// (`"MUGS20,SAVE10"`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Payment {
    /// The payment's id.
    pub payment: String,
    /// The code, normalised (a stack's codes joined by commas); empty when asking.
    pub code: String,
}

/// A payment's success, before anything is captured for it:
/// `{"payment": "pi_...", "code": "SAVE10"}` (a stack's codes joined by
/// commas). The catalog indexes the codes unless the payment is known, and
/// answers a [`Claimed`], in one turn: so that a full refund of the payment,
/// which may not know its codes, and the success meet there, whichever comes
/// first.
pub type Claim = Payment;

/// The catalog's answer to a [`Claim`]: `{"refunded": null}` or
/// `{"refunded": "<reason>"}`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Claimed {
    /// The reason of a full refund of the payment that came before: the
    /// payment is final (refunded), and its success captures nothing.
    pub refunded: Option<String>,
}

/// A full refund of a payment: `{"payment": "pi_...", "reason": "..."}`. The
/// catalog marks the payment refunded for good (the first reason stays) and
/// answers the codes it knows for it (a [`Payment`], `null` when none: its
/// success, when it comes, finds the mark), in one turn.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Refund {
    /// The payment's id.
    pub payment: String,
    /// Why, for the record (the refund event's).
    pub reason: String,
}

/// What automatic promotions need to know of a code after its definition
/// changed (its `PUT`, `PATCH` or archive): `{"code": "SHIPFREE",
/// "automatic": true, "active": true, "priority": 10}`. `automatic: false`
/// (a definition that is not automatic, or an archived code) drops it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct AutomaticChange {
    /// The normalised code.
    pub code: String,
    /// Whether its definition is automatic (and the code not archived).
    pub automatic: bool,
    /// Whether it is switched on.
    pub active: bool,
    /// Its priority (lower first).
    pub priority: u32,
}

/// The catalog's answer to an [`AutomaticChange`]: `{"was": true}` when the
/// code was an automatic promotion before it (so either way, the Worker
/// purges the cached list when `was` or the change is automatic).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct AutomaticChanged {
    /// Whether the code was an automatic promotion before the change.
    pub was: bool,
}

/// Which automatic promotions to list: `{"inactive": false}` for the active
/// ones, by priority then code, at most
/// [`Stack::MAX_AUTOMATIC`](crate::Stack::MAX_AUTOMATIC) (what a quote offers);
/// `{"inactive": true}` adds the switched-off ones after them, as many again
/// at most (a retry looks for its recorded uses there too).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct AutomaticQuery {
    /// Switched-off ones too.
    pub inactive: bool,
}

/// An automatic promotion as the catalog knows it; an [`AutomaticQuery`]
/// answers a list of them.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct AutomaticEntry {
    /// The normalised code.
    pub code: String,
    /// Whether it is switched on.
    pub active: bool,
    /// Its priority.
    pub priority: u32,
}

/// Where a [`CatalogCall`] goes in the catalog: the one place a call's path
/// is written. Every call is a `POST`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum CatalogRoute {
    /// `/intend`: see [`CatalogCall::Intend`].
    Intend,
    /// `/commit`: see [`CatalogCall::Commit`].
    Commit,
    /// `/forget`: see [`CatalogCall::Forget`].
    Forget,
    /// `/exists`: see [`CatalogCall::Exists`].
    Exists,
    /// `/list`: see [`CatalogCall::List`].
    List,
    /// `/campaign`: see [`CatalogCall::Campaign`].
    Campaign,
    /// `/campaign-exists`: see [`CatalogCall::CampaignExists`].
    CampaignExists,
    /// `/list-campaigns`: see [`CatalogCall::ListCampaigns`].
    ListCampaigns,
    /// `/register`: see [`CatalogCall::Register`].
    Register,
    /// `/unregister`: see [`CatalogCall::Unregister`].
    Unregister,
    /// `/payment`: see [`CatalogCall::Payment`].
    Payment,
    /// `/payment-code`: see [`CatalogCall::PaymentCode`].
    PaymentCode,
    /// `/payment-claim`: see [`CatalogCall::PaymentClaim`].
    PaymentClaim,
    /// `/payment-refund`: see [`CatalogCall::PaymentRefund`].
    PaymentRefund,
    /// `/automatic`: see [`CatalogCall::Automatic`].
    Automatic,
    /// `/list-automatic`: see [`CatalogCall::ListAutomatic`].
    ListAutomatic,
    /// `/webhook-put`: see [`CatalogCall::PutWebhook`].
    PutWebhook,
    /// `/webhook`: see [`CatalogCall::Webhook`].
    Webhook,
    /// `/webhooks`: see [`CatalogCall::Webhooks`].
    Webhooks,
    /// `/webhook-delete`: see [`CatalogCall::DeleteWebhook`].
    DeleteWebhook,
    /// `/webhook-rotate`: see [`CatalogCall::RotateWebhook`].
    RotateWebhook,
    /// `/webhook-disable`: see [`CatalogCall::DisableWebhook`].
    DisableWebhook,
    /// `/webhook-targets`: see [`CatalogCall::WebhookTargets`].
    WebhookTargets,
    /// `/delivery-record`: see [`CatalogCall::RecordDelivery`].
    RecordDelivery,
    /// `/deliveries`: see [`CatalogCall::Deliveries`].
    Deliveries,
    /// `/delivery`: see [`CatalogCall::Delivery`].
    Delivery,
}

impl CatalogRoute {
    /// Every route, for the tests that check the table both ways.
    pub const ALL: &'static [CatalogRoute] = &[
        CatalogRoute::Intend,
        CatalogRoute::Commit,
        CatalogRoute::Forget,
        CatalogRoute::Exists,
        CatalogRoute::List,
        CatalogRoute::Campaign,
        CatalogRoute::CampaignExists,
        CatalogRoute::ListCampaigns,
        CatalogRoute::Register,
        CatalogRoute::Unregister,
        CatalogRoute::Payment,
        CatalogRoute::PaymentCode,
        CatalogRoute::PaymentClaim,
        CatalogRoute::PaymentRefund,
        CatalogRoute::Automatic,
        CatalogRoute::ListAutomatic,
        CatalogRoute::PutWebhook,
        CatalogRoute::Webhook,
        CatalogRoute::Webhooks,
        CatalogRoute::DeleteWebhook,
        CatalogRoute::RotateWebhook,
        CatalogRoute::DisableWebhook,
        CatalogRoute::WebhookTargets,
        CatalogRoute::RecordDelivery,
        CatalogRoute::Deliveries,
        CatalogRoute::Delivery,
    ];

    /// Its path in the catalog object.
    pub fn path(self) -> &'static str {
        match self {
            CatalogRoute::Intend => "/intend",
            CatalogRoute::Commit => "/commit",
            CatalogRoute::Forget => "/forget",
            CatalogRoute::Exists => "/exists",
            CatalogRoute::List => "/list",
            CatalogRoute::Campaign => "/campaign",
            CatalogRoute::CampaignExists => "/campaign-exists",
            CatalogRoute::ListCampaigns => "/list-campaigns",
            CatalogRoute::Register => "/register",
            CatalogRoute::Unregister => "/unregister",
            CatalogRoute::Payment => "/payment",
            CatalogRoute::PaymentCode => "/payment-code",
            CatalogRoute::PaymentClaim => "/payment-claim",
            CatalogRoute::PaymentRefund => "/payment-refund",
            CatalogRoute::Automatic => "/automatic",
            CatalogRoute::ListAutomatic => "/list-automatic",
            CatalogRoute::PutWebhook => "/webhook-put",
            CatalogRoute::Webhook => "/webhook",
            CatalogRoute::Webhooks => "/webhooks",
            CatalogRoute::DeleteWebhook => "/webhook-delete",
            CatalogRoute::RotateWebhook => "/webhook-rotate",
            CatalogRoute::DisableWebhook => "/webhook-disable",
            CatalogRoute::WebhookTargets => "/webhook-targets",
            CatalogRoute::RecordDelivery => "/delivery-record",
            CatalogRoute::Deliveries => "/deliveries",
            CatalogRoute::Delivery => "/delivery",
        }
    }

    /// The route whose path is `path`, if any.
    pub fn of(path: &str) -> Option<CatalogRoute> {
        CatalogRoute::ALL.iter().copied().find(|route| route.path() == path)
    }
}

/// One call of the Worker to the catalog, with its body. It is written
/// (`Serialize`) as its body alone (the route says which call it is), and
/// read back with [`CatalogCall::read`].
///
/// # Example
///
/// ```
/// use promocodes::wire::{CatalogCall, CatalogRoute, Change};
///
/// let call = CatalogCall::Exists(Change { code: "SAVE10".to_owned(), archived: false });
/// assert_eq!(call.route().path(), "/exists");
/// let body = serde_json::to_string(&call)?;
/// assert_eq!(body, r#"{"code":"SAVE10","archived":false}"#);
/// assert_eq!(CatalogCall::read(CatalogRoute::Exists, &body)?, call);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(untagged)]
pub enum CatalogCall {
    /// A code's definition is about to change (before its object is
    /// written): its row is marked pending. Answers 204, or 409 when the
    /// code is a campaign's (not defined alone).
    Intend(Change),
    /// A code's definition changed (after its object was written): its row
    /// is confirmed with its `archived` flag. Answers 204.
    Commit(Change),
    /// A code's pending row goes (its definition was never written). Answers 204.
    Forget(Change),
    /// Whether a code is known: answers its [`Entry`], or `null`.
    Exists(Change),
    /// A page of the plain codes (not campaigns'): answers a
    /// [`Listed`]`<`[`Entry`]`>`. Pending rows are listed whatever their
    /// `archived` flag.
    List(Page),
    /// A campaign was defined or archived (`code` is its id). Answers 204.
    Campaign(Change),
    /// Whether a campaign (`code`, its id) was ever defined: answers `true` or `false`.
    CampaignExists(Change),
    /// A page of the campaigns: answers a [`Listed`]`<String>` of their ids.
    ListCampaigns(Page),
    /// Registers a campaign's codes, all or none: answers a [`Registered`].
    Register(Registration),
    /// Drops the codes one call registered for a campaign. Answers 204.
    Unregister(Unregistration),
    /// Indexes a captured payment under its codes (the first codes stay).
    /// Answers 204.
    Payment(Payment),
    /// The codes a payment (`code` empty) is indexed under: answers a
    /// [`Payment`], or `null`.
    PaymentCode(Payment),
    /// A payment's success before anything is captured: answers a [`Claimed`].
    PaymentClaim(Claim),
    /// A full refund of a payment: answers the [`Payment`] it is indexed
    /// under, or `null`.
    PaymentRefund(Refund),
    /// A code's definition changed: whether it is an automatic promotion
    /// now, switched on, and its priority. Answers an [`AutomaticChanged`].
    Automatic(AutomaticChange),
    /// The automatic promotions: answers a list of [`AutomaticEntry`].
    ListAutomatic(AutomaticQuery),
    /// Defines or replaces a webhook endpoint: answers a [`WebhookWritten`](super::WebhookWritten).
    PutWebhook(WebhookWrite),
    /// One endpoint: answers its [`WebhookEndpoint`](super::WebhookEndpoint), or `null`.
    Webhook(WebhookId),
    /// Every endpoint: answers a [`WebhookList`](super::WebhookList).
    Webhooks(AllWebhooks),
    /// Deletes an endpoint: answers `true`, or `false` when there was none.
    DeleteWebhook(WebhookId),
    /// A new secret for an endpoint: answers its [`WebhookEndpoint`](super::WebhookEndpoint), or `null`.
    RotateWebhook(WebhookRotation),
    /// Disables an endpoint (it answered 410). Answers 204.
    DisableWebhook(WebhookDisable),
    /// The enabled endpoints with the secrets that sign now, for delivery:
    /// answers a `Vec<`[`WebhookTarget`](super::WebhookTarget)`>`.
    WebhookTargets(AllWebhooks),
    /// To an endpoint's own log (the catalog class's object `webhook:<id>`):
    /// records tries of events, in order (an event's latest replaces its
    /// earlier): one call for an alarm's tries. Answers 204.
    RecordDelivery(Vec<DeliveryRecord>),
    /// To an endpoint's own log: a page of its deliveries: answers a [`DeliveryList`](super::DeliveryList).
    Deliveries(DeliveryPage),
    /// To an endpoint's own log: one event's delivery: answers its [`DeliveryRecord`], or `null`.
    Delivery(EventRef),
}

/// The body of the catalog's calls about every endpoint: `{}`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct AllWebhooks {}

impl CatalogCall {
    /// Where the call goes.
    pub fn route(&self) -> CatalogRoute {
        match self {
            CatalogCall::Intend(_) => CatalogRoute::Intend,
            CatalogCall::Commit(_) => CatalogRoute::Commit,
            CatalogCall::Forget(_) => CatalogRoute::Forget,
            CatalogCall::Exists(_) => CatalogRoute::Exists,
            CatalogCall::List(_) => CatalogRoute::List,
            CatalogCall::Campaign(_) => CatalogRoute::Campaign,
            CatalogCall::CampaignExists(_) => CatalogRoute::CampaignExists,
            CatalogCall::ListCampaigns(_) => CatalogRoute::ListCampaigns,
            CatalogCall::Register(_) => CatalogRoute::Register,
            CatalogCall::Unregister(_) => CatalogRoute::Unregister,
            CatalogCall::Payment(_) => CatalogRoute::Payment,
            CatalogCall::PaymentCode(_) => CatalogRoute::PaymentCode,
            CatalogCall::PaymentClaim(_) => CatalogRoute::PaymentClaim,
            CatalogCall::PaymentRefund(_) => CatalogRoute::PaymentRefund,
            CatalogCall::Automatic(_) => CatalogRoute::Automatic,
            CatalogCall::ListAutomatic(_) => CatalogRoute::ListAutomatic,
            CatalogCall::PutWebhook(_) => CatalogRoute::PutWebhook,
            CatalogCall::Webhook(_) => CatalogRoute::Webhook,
            CatalogCall::Webhooks(_) => CatalogRoute::Webhooks,
            CatalogCall::DeleteWebhook(_) => CatalogRoute::DeleteWebhook,
            CatalogCall::RotateWebhook(_) => CatalogRoute::RotateWebhook,
            CatalogCall::DisableWebhook(_) => CatalogRoute::DisableWebhook,
            CatalogCall::WebhookTargets(_) => CatalogRoute::WebhookTargets,
            CatalogCall::RecordDelivery(_) => CatalogRoute::RecordDelivery,
            CatalogCall::Deliveries(_) => CatalogRoute::Deliveries,
            CatalogCall::Delivery(_) => CatalogRoute::Delivery,
        }
    }

    /// The call that came to `route` with the JSON `body`.
    ///
    /// # Errors
    ///
    /// The body is not the route's JSON.
    pub fn read(route: CatalogRoute, body: &str) -> Result<CatalogCall, serde_json::Error> {
        Ok(match route {
            CatalogRoute::Intend => CatalogCall::Intend(serde_json::from_str(body)?),
            CatalogRoute::Commit => CatalogCall::Commit(serde_json::from_str(body)?),
            CatalogRoute::Forget => CatalogCall::Forget(serde_json::from_str(body)?),
            CatalogRoute::Exists => CatalogCall::Exists(serde_json::from_str(body)?),
            CatalogRoute::List => CatalogCall::List(serde_json::from_str(body)?),
            CatalogRoute::Campaign => CatalogCall::Campaign(serde_json::from_str(body)?),
            CatalogRoute::CampaignExists => CatalogCall::CampaignExists(serde_json::from_str(body)?),
            CatalogRoute::ListCampaigns => CatalogCall::ListCampaigns(serde_json::from_str(body)?),
            CatalogRoute::Register => CatalogCall::Register(serde_json::from_str(body)?),
            CatalogRoute::Unregister => CatalogCall::Unregister(serde_json::from_str(body)?),
            CatalogRoute::Payment => CatalogCall::Payment(serde_json::from_str(body)?),
            CatalogRoute::PaymentCode => CatalogCall::PaymentCode(serde_json::from_str(body)?),
            CatalogRoute::PaymentClaim => CatalogCall::PaymentClaim(serde_json::from_str(body)?),
            CatalogRoute::PaymentRefund => CatalogCall::PaymentRefund(serde_json::from_str(body)?),
            CatalogRoute::Automatic => CatalogCall::Automatic(serde_json::from_str(body)?),
            CatalogRoute::ListAutomatic => CatalogCall::ListAutomatic(serde_json::from_str(body)?),
            CatalogRoute::PutWebhook => CatalogCall::PutWebhook(serde_json::from_str(body)?),
            CatalogRoute::Webhook => CatalogCall::Webhook(serde_json::from_str(body)?),
            CatalogRoute::Webhooks => CatalogCall::Webhooks(serde_json::from_str(body)?),
            CatalogRoute::DeleteWebhook => CatalogCall::DeleteWebhook(serde_json::from_str(body)?),
            CatalogRoute::RotateWebhook => CatalogCall::RotateWebhook(serde_json::from_str(body)?),
            CatalogRoute::DisableWebhook => CatalogCall::DisableWebhook(serde_json::from_str(body)?),
            CatalogRoute::WebhookTargets => CatalogCall::WebhookTargets(serde_json::from_str(body)?),
            CatalogRoute::RecordDelivery => CatalogCall::RecordDelivery(serde_json::from_str(body)?),
            CatalogRoute::Deliveries => CatalogCall::Deliveries(serde_json::from_str(body)?),
            CatalogRoute::Delivery => CatalogCall::Delivery(serde_json::from_str(body)?),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn change() -> Change {
        Change {
            code: "SAVE10".to_owned(),
            archived: true,
        }
    }

    fn payment() -> Payment {
        Payment {
            payment: "pi_1".to_owned(),
            code: "MUGS20,SAVE10".to_owned(),
        }
    }

    /// One call of every route.
    fn every_call() -> Vec<CatalogCall> {
        let page = Page {
            prefix: "BF".to_owned(),
            after: "BF1".to_owned(),
            limit: 10,
            archived: true,
        };
        vec![
            CatalogCall::Intend(change()),
            CatalogCall::Commit(change()),
            CatalogCall::Forget(change()),
            CatalogCall::Exists(change()),
            CatalogCall::List(page.clone()),
            CatalogCall::Campaign(change()),
            CatalogCall::CampaignExists(change()),
            CatalogCall::ListCampaigns(page),
            CatalogCall::Register(Registration {
                campaign: "BF".to_owned(),
                batch: "b1".to_owned(),
                codes: vec!["BF-1".to_owned()],
            }),
            CatalogCall::Unregister(Unregistration {
                campaign: "BF".to_owned(),
                batch: "b1".to_owned(),
            }),
            CatalogCall::Payment(payment()),
            CatalogCall::PaymentCode(payment()),
            CatalogCall::PaymentClaim(payment()),
            CatalogCall::PaymentRefund(Refund {
                payment: "pi_1".to_owned(),
                reason: "requested_by_customer".to_owned(),
            }),
            CatalogCall::Automatic(AutomaticChange {
                code: "SHIPFREE".to_owned(),
                automatic: true,
                active: true,
                priority: 10,
            }),
            CatalogCall::ListAutomatic(AutomaticQuery { inactive: true }),
            CatalogCall::PutWebhook(WebhookWrite {
                id: "shop".to_owned(),
                request: super::super::WebhookRequest {
                    url: "https://shop.example/hooks".to_owned(),
                    events: vec![super::super::EventType::CodeExhausted],
                    description: None,
                },
                secret: "whsec_x".to_owned(),
                now: crate::Timestamp::MIN,
                max: 16,
            }),
            CatalogCall::Webhook(WebhookId { id: "shop".to_owned() }),
            CatalogCall::Webhooks(AllWebhooks {}),
            CatalogCall::DeleteWebhook(WebhookId { id: "shop".to_owned() }),
            CatalogCall::RotateWebhook(WebhookRotation {
                id: "shop".to_owned(),
                secret: "whsec_y".to_owned(),
                until: crate::Timestamp::MIN,
            }),
            CatalogCall::DisableWebhook(WebhookDisable {
                id: "shop".to_owned(),
                reason: "410 Gone".to_owned(),
            }),
            CatalogCall::WebhookTargets(AllWebhooks {}),
            CatalogCall::RecordDelivery(vec![DeliveryRecord {
                event_id: "evt_A_1".to_owned(),
                kind: super::super::EventType::RedemptionHeld,
                at: crate::Timestamp::MIN,
                attempts: 1,
                state: super::super::DeliveryState::Pending,
                status: Some(500),
                error: Some("answered 500".to_owned()),
                tried_at: Some(crate::Timestamp::MIN),
                next_try: None,
                object: "A".to_owned(),
                seq: 1,
            }]),
            CatalogCall::Deliveries(DeliveryPage { after: 0, limit: 10 }),
            CatalogCall::Delivery(EventRef {
                event_id: "evt_A_1".to_owned(),
            }),
        ]
    }

    #[test]
    fn every_call_is_read_back_from_its_route_and_body() {
        let calls = every_call();
        let routes: Vec<CatalogRoute> = calls.iter().map(CatalogCall::route).collect();
        assert_eq!(routes, CatalogRoute::ALL, "one call of every route, in order");
        for call in calls {
            let route = CatalogRoute::of(call.route().path()).expect("its path is a route");
            let body = serde_json::to_string(&call).unwrap();
            assert_eq!(CatalogCall::read(route, &body).unwrap(), call, "{body}");
        }
        assert_eq!(CatalogRoute::of("/nothing"), None);
        assert!(CatalogCall::read(CatalogRoute::Register, r#"{"code":"SAVE10","archived":false}"#).is_err());
    }

    #[test]
    fn bodies_and_answers_keep_their_json() {
        let body = serde_json::to_string(&CatalogCall::Payment(payment())).unwrap();
        assert_eq!(body, r#"{"payment":"pi_1","code":"MUGS20,SAVE10"}"#);
        let entry = Entry {
            code: "SAVE10".to_owned(),
            pending: false,
            archived: false,
            campaign: None,
        };
        let listed = serde_json::to_string(&Listed(vec![entry], true)).unwrap();
        assert_eq!(listed, r#"[[{"code":"SAVE10","pending":false,"archived":false}],true]"#);
        let (ids, more): (Vec<String>, bool) =
            serde_json::from_str(&serde_json::to_string(&Listed(vec!["BF".to_owned()], false)).unwrap()).unwrap();
        assert_eq!((ids, more), (vec!["BF".to_owned()], false));
        assert_eq!(
            serde_json::to_string(&Registered { taken: None }).unwrap(),
            r#"{"taken":null}"#
        );
    }
}
