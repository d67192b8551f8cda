//! The checkout: quotes, holds, captures and releases, forwarded to the
//! code's object, which decides each with the core.

use promocodes::api::{names_several_codes, BasketRequest, BasketRequestKind, ReleaseRequest, StackRequest};
use promocodes::wire::{
    OutcomeLine, ProblemDetails, ReleaseCall, StackCodeCall, StackHolds, StackPartAnswer, StackPartCall,
};
use promocodes::wire::{StackReceipts, StackReleases};
use promocodes::{Code, CustomerId, Hold, IdempotencyKey, Quote, Receipt, Stack, StackResumeError, UsageCounts};
use serde::de::DeserializeOwned;
use worker::{Env, Request, Response};

use super::{automatic, limit_public, routing, Answer};
use crate::clients::{self, require_known};
use crate::http::{idempotency_key, is_trusted, read_body};
use crate::limits::{BASKET_BODY_LIMIT, DEFAULT_BODY_LIMIT};
use crate::problem::Problem;
use crate::protocol::{
    Call, FOR_CACHE_HEADER, IDEMPOTENCY_KEY_HEADER, TEST_CONFLICT_HEADER, TEST_STALL_HEADER, TEST_STALL_SECONDS,
};

/// `POST /v1/quotes`: public without a customer; a quote for a named
/// customer tells whether that customer may use the code, so it needs a
/// server's token.
pub async fn quote(req: &Request, env: &Env) -> Answer {
    let trusted = is_trusted(req, env)?;
    limit_public(req, env, trusted).await?;
    let body = read_body(req, BASKET_BODY_LIMIT).await?;
    if names_several_codes(&body)? {
        return stack_quote(env, &body, trusted).await;
    }
    let routing = routing(&body, BasketRequestKind::Quote)?;
    if routing.customer.is_some() && !trusted {
        // Bad input is still named as such; a valid quote for a customer needs the token.
        BasketRequest::parse(&body, BasketRequestKind::Quote)?;
        return Err(Problem::Unauthorized);
    }
    quote_through_ledger(env, &routing.code, body, trusted).await
}

/// What [`stack_parts`] reads of a stack's codes: the core's [`Stack`] of
/// their definitions, and for each code (the typed ones as listed, then the
/// automatic promotions offered) its usage and the quote of the use it has
/// under the request's key, if any.
pub(crate) struct StackParts {
    /// The codes' definitions (with the automatic promotions offered, if asked).
    pub stack: Stack,
    /// Each code, in the order of `usage` and `recorded`: the typed ones, then the automatic ones.
    pub codes: Vec<Code>,
    /// Each code's usage (for the request's customer).
    pub usage: Vec<UsageCounts>,
    /// Each code's use under the key (held or captured), which a retry takes as it is.
    pub recorded: Vec<Option<Quote>>,
    /// Whether any code's use under the key is a capture (not a hold).
    pub captured: bool,
}

/// Each code's whole definition and usage (for the request's customer) from
/// its object: what the core's [`Stack`] prices with. With the request's
/// idempotency `key` (a hold or a capture), each code's object also answers
/// the quote of the use it has under that key (an active hold, or a
/// capture): [`Stack::resume`] takes it as it is, never priced again, so a
/// retry replays what was done and finishes the rest. `payment`: the key is
/// a payment's id, looked up as the payment flow captures it.
/// `Err(Ok(response))` is an object's own problem (an archived code:
/// unknown), as it answered it.
pub(crate) async fn stack_parts(
    env: &Env,
    codes: &[Code],
    customer: Option<&CustomerId>,
    key: Option<&IdempotencyKey>,
    payment: bool,
) -> std::result::Result<StackParts, Answer> {
    stack_parts_with(env, codes, None, customer, key, payment).await
}

/// [`stack_parts`], with the `automatic` promotions offered beside the typed
/// `codes` when asked ([`Stack::with_automatic`]): each read from its object
/// at once; one its object no longer has (archived), or no longer has as an
/// active automatic promotion, is left out unless it has a use under the key.
pub(crate) async fn stack_parts_with(
    env: &Env,
    codes: &[Code],
    automatic: Option<&[Code]>,
    customer: Option<&CustomerId>,
    key: Option<&IdempotencyKey>,
    payment: bool,
) -> std::result::Result<StackParts, Answer> {
    let asked = StackPartCall {
        customer: customer.cloned(),
        key: key.cloned(),
        payment,
    };
    let asked = serde_json::to_string(&asked).map_err(|e| Err(Problem::Internal(e.to_string())))?;
    let mut promos = Vec::with_capacity(codes.len());
    let mut parts = StackParts {
        stack: Stack::with_automatic(Vec::new(), Vec::new()).map_err(|e| Err(e.into()))?,
        codes: codes.to_vec(),
        usage: Vec::with_capacity(codes.len()),
        recorded: Vec::with_capacity(codes.len()),
        captured: false,
    };
    // Every code's object at once; the first code (as listed) that is unknown or refused answers.
    let reads = codes.iter().map(|code| {
        let asked = asked.clone();
        async move {
            require_known(env, code).await.map_err(Err)?;
            let mut response = clients::call(env, code, Call::StackPart, Some(asked))
                .await
                .map_err(Err)?;
            if response.status_code() != 200 {
                return Err(Ok(response));
            }
            read_part(code, &mut response).await.map_err(Err)
        }
    });
    for read in futures_util::future::join_all(reads).await {
        let part = read?;
        promos.push(part.definition);
        parts.usage.push(part.usage);
        parts.recorded.push(part.recorded);
        parts.captured |= part.captured;
    }
    let Some(automatic) = automatic else {
        parts.stack = Stack::new(promos).map_err(|e| Err(e.into()))?;
        return Ok(parts);
    };
    let offered: Vec<&Code> = automatic.iter().filter(|code| !codes.contains(code)).collect();
    let reads = offered.iter().map(|code| async {
        let request = Call::StackPart.request(code, &[], Some(asked.clone()), &[])?;
        // An automatic promotion is a plain code (a campaign cannot be automatic): its own object.
        let mut response = clients::to_object(env, code.as_str(), request).await?;
        if response.status_code() != 200 {
            return Ok(None);
        }
        read_part(code, &mut response).await.map(Some)
    });
    let mut automatic_promos = Vec::with_capacity(offered.len());
    for (code, read) in offered.iter().zip(futures_util::future::join_all(reads).await) {
        let Some(part) = read.map_err(Err)? else {
            continue;
        };
        let live = part.definition.is_automatic() && part.definition.active();
        if !live && part.recorded.is_none() {
            continue;
        }
        automatic_promos.push(part.definition);
        parts.codes.push((*code).clone());
        parts.usage.push(part.usage);
        parts.recorded.push(part.recorded);
        parts.captured |= part.captured;
    }
    parts.stack = Stack::with_automatic(promos, automatic_promos).map_err(|e| Err(e.into()))?;
    Ok(parts)
}

/// A code object's answer to [`Call::StackPart`].
async fn read_part(code: &Code, response: &mut Response) -> std::result::Result<StackPartAnswer, Problem> {
    let text = response.text().await?;
    // Its definition as its object wrote it: a campaign's code names its campaign, so that its own
    // cap counts.
    serde_json::from_str(&text).map_err(|err| Problem::Internal(format!("the object of {code} answered: {err}")))
}

/// `POST /v1/quotes` with `"codes": [...]` (or `"automatic": true`): each
/// code's whole definition and usage from its object, then the core's
/// [`Stack`] prices the basket with them all (nothing is recorded), deciding
/// which automatic promotions join. A refused stack is 422 with `rejections`.
pub(crate) async fn stack_quote(env: &Env, body: &str, trusted: bool) -> Answer {
    let req = StackRequest::parse(body)?;
    if req.customer.is_some() && !trusted {
        return Err(Problem::Unauthorized);
    }
    let offered = match req.automatic {
        true => Some(automatic::offered(env, false).await?),
        false => None,
    };
    let parts = stack_parts_with(env, &req.codes, offered.as_deref(), req.customer.as_ref(), None, false);
    let StackParts { stack, usage, .. } = match parts.await {
        Ok(parts) => parts,
        Err(answer) => return answer,
    };
    match stack.quote(req.customer.as_ref(), &usage, &req.basket, crate::ledger::now()?) {
        Ok(quote) => crate::ledger::json_response(&quote, 200),
        Err(refused) => Err(Problem::StackRefused(refused)),
    }
}

/// The reason a stack's own release gives (when a later code refused).
const STACK_UNDONE: &str = "another code of the stack was refused";

/// `POST /v1/holds` and `/v1/captures` with `"codes": [...]`: all or none.
/// The stack is priced first (a refused stack records nothing) by the
/// core's [`Stack::resume`]: a code with a use under the request's
/// `Idempotency-Key` (held or captured) is that use as it is, never priced
/// again; only the others are priced. Then every code is held (or
/// captured, converting its hold under the key) in its object under the
/// key at once, with the basket its part applied to, so that each code's
/// answer is its part (a code with a use replays it, 200). A code
/// refused then (its counts moved) gives back only what this request newly
/// took (its codes answered 201 that had no use under the key before), never
/// a use the key had before (a hold it converted included). So a
/// retry of a stack written whole replays it whole (200, whatever changed
/// since), one that stopped half way is finished, and a stack whose first
/// try died half way counts no use longer than its holds' time to live.
///
/// `stall` (test builds only, [`TEST_STALL_HEADER`]) writes the codes one
/// after another and waits after the first, for a test to kill the process
/// between two codes.
async fn stack_keyed(env: &Env, kind: BasketRequestKind, key: &IdempotencyKey, body: &str, stall: bool) -> Answer {
    let req = StackRequest::parse_for(body, kind)?;
    let offered = match req.automatic {
        true => Some(automatic::offered(env, true).await?),
        false => None,
    };
    let customer = req.customer.as_ref();
    let parts = match stack_parts_with(env, &req.codes, offered.as_deref(), customer, Some(key), false).await {
        Ok(parts) => parts,
        Err(answer) => return answer,
    };
    // A code with a use under the key is its record as it is; only the others are priced. A
    // request tried before (a hold with any use under the key, a capture with a captured one)
    // replays its automatic promotions and takes no new one; a capture converting holds decides
    // them afresh, at payment time.
    let tried = parts.recorded.iter().any(Option::is_some) && (kind == BasketRequestKind::Hold || parts.captured);
    let now = crate::ledger::now()?;
    let priced = if tried {
        parts
            .stack
            .replay(customer, &parts.usage, &parts.recorded, &req.basket, now)
    } else {
        parts
            .stack
            .resume(customer, &parts.usage, &parts.recorded, &req.basket, now)
    };
    let quote = priced.map_err(|err| match err {
        StackResumeError::Rejected(refused) => Problem::StackRefused(refused),
        _ => Problem::IdempotencyKeyReused(key.clone()),
    })?;
    // A capture pinned to the stack's quote as shown: any part changed is quote_changed.
    if let Some(changed) = req.quote.as_ref().and_then(|shown| quote.changed_from(shown)) {
        return Err(Problem::StackRefused(changed));
    }
    let calls = quote.codes().iter().zip(quote.baskets_applied_to(&req.basket));
    let calls = calls.map(|(part, basket)| StackCodeCall {
        code: part.code().clone(),
        basket,
        customer: req.customer.clone(),
        customer_orders: req.customer_orders,
        ttl_seconds: req.ttl_seconds,
        // Each code's capture pinned to its part: a change between pricing and writing refuses.
        quote: req.quote.as_ref().map(|_| part.quote().clone()),
    });
    // The codes whose use under the key came before this request (held or captured): converting
    // or replaying them takes nothing new, so a refusal never gives them back.
    let had: Vec<Code> = (parts.codes.iter().zip(&parts.recorded))
        .filter(|(_, recorded)| recorded.is_some())
        .map(|(code, _)| code.clone())
        .collect();
    let created = |taken: bool| if taken { 201 } else { 200 };
    let skipped = quote.skipped().to_vec();
    if kind == BasketRequestKind::Hold {
        match write_each::<Hold>(env, Call::Hold, key, &had, calls, stall).await? {
            Ok((holds, taken)) => crate::ledger::json_response(&StackHolds { holds, skipped }, created(taken)),
            Err(refused) => Ok(refused),
        }
    } else {
        match write_each::<Receipt>(env, Call::Capture, key, &had, calls, stall).await? {
            Ok((receipts, taken)) => crate::ledger::json_response(&StackReceipts { receipts, skipped }, created(taken)),
            Err(refused) => Ok(refused),
        }
    }
}

/// Each code's hold or capture (`call`, one [`StackCodeCall`] a code, in
/// the order they apply) in its object under `key`, all at once: each
/// code's answer `T` and whether any code answered 201, or, when a code's
/// object refused (the first as listed answers), the answer to give, once
/// what this request newly took (a 201 for a code not in `had`, the codes
/// with a use under the key before it) is given back. `stall` (test builds)
/// writes one code after another instead, waiting after the first.
async fn write_each<T: DeserializeOwned>(
    env: &Env,
    call: Call,
    key: &IdempotencyKey,
    had: &[Code],
    calls: impl Iterator<Item = StackCodeCall>,
    stall: bool,
) -> std::result::Result<std::result::Result<(Vec<T>, bool), Response>, Problem> {
    let (answers, created) = match send_each(env, call, key, had, calls.collect(), stall).await? {
        Ok(sent) => sent,
        Err(refused) => return Ok(Err(refused)),
    };
    let mut done = Vec::with_capacity(answers.len());
    for mut response in answers {
        done.push(response.json().await?);
    }
    Ok(Ok((done, created)))
}

/// [`write_each`]'s calls, the same for every answer type (one copy in the
/// Worker's code): each code's object's answer, as listed, and whether any
/// answered 201; or, once given back what this request newly took, the
/// answer of the first code refused.
async fn send_each(
    env: &Env,
    call: Call,
    key: &IdempotencyKey,
    had: &[Code],
    calls: Vec<StackCodeCall>,
    stall: bool,
) -> std::result::Result<std::result::Result<(Vec<Response>, bool), Response>, Problem> {
    let headers = [(IDEMPOTENCY_KEY_HEADER, key.as_str())];
    let send = |one: &StackCodeCall| {
        let (code, body) = (one.code.clone(), body_of(one));
        async move {
            let body = body?;
            let request = call.request(&code, &[], Some(body.clone()), &headers)?;
            // A sharded code's part goes where the customer's (else the key's) other uses are.
            crate::shards::send_keyed(env, &code, key, &body, request).await
        }
    };
    // Each code and its object's answer, as listed (with `stall`, up to the first refusal).
    let mut answers: Vec<(Code, Response)> = Vec::with_capacity(calls.len());
    if cfg!(feature = "conformance") && stall {
        for one in calls {
            let response = send(&one).await?;
            let refused = !matches!(response.status_code(), 200 | 201);
            answers.push((one.code, response));
            if refused {
                break;
            }
            if answers.len() == 1 {
                worker::Delay::from(std::time::Duration::from_secs(TEST_STALL_SECONDS)).await;
            }
        }
    } else {
        let responses = futures_util::future::join_all(calls.iter().map(send)).await;
        for (one, response) in calls.into_iter().zip(responses) {
            answers.push((one.code, response?));
        }
    }
    let refused = answers
        .iter()
        .position(|(_, response)| !matches!(response.status_code(), 200 | 201));
    let Some(refused) = refused else {
        let created = answers.iter().any(|(_, response)| response.status_code() == 201);
        return Ok(Ok((
            answers.into_iter().map(|(_, response)| response).collect(),
            created,
        )));
    };
    // All or none: give back what this request newly took (at once), then answer. A use the key
    // had before (a replay, or a hold this request converted) stays: this request never took it.
    let newly = answers
        .iter()
        .filter(|(code, response)| response.status_code() == 201 && !had.contains(code));
    let releases = newly.map(|(earlier, _)| async move {
        let release = ReleaseCall {
            code: earlier.clone(),
            key: key.clone(),
            reason: Some(STACK_UNDONE.to_owned()),
        };
        crate::shards::send_release(env, earlier, key, body_of(&release)?).await
    });
    for released in futures_util::future::join_all(releases).await {
        released?;
    }
    let (code, mut response) = answers.swap_remove(refused);
    let status = response.status_code();
    let problem: ProblemDetails = response.json().await?;
    let mut answered = Response::from_json(&problem.naming(&code))?.with_status(status);
    answered.headers_mut().set("content-type", "application/problem+json")?;
    Ok(Err(answered))
}

/// A call's body.
fn body_of(call: &impl serde::Serialize) -> std::result::Result<String, Problem> {
    serde_json::to_string(call).map_err(|e| Problem::Internal(e.to_string()))
}

/// `POST /v1/releases` with `{"codes": [...], "key", "reason"?}`: gives every
/// code's use under the key back, one answer per code as listed; the first
/// code that cannot (nothing under the key) answers for the request, after
/// the others were released.
async fn stack_release(env: &Env, body: &str) -> Answer {
    let mut fields: serde_json::Map<String, serde_json::Value> = promocodes::from_json(body)?;
    let automatic = match fields.remove("automatic") {
        None => false,
        Some(flag) => promocodes::from_json::<bool>(&flag.to_string()).map_err(|e| e.at("automatic"))?,
    };
    let mut codes: Vec<Code> = match (fields.remove("codes"), fields.remove("code")) {
        (None, Some(one)) => vec![promocodes::from_json(&one.to_string()).map_err(|e| e.at("code"))?],
        (None, None) if automatic => Vec::new(),
        (listed, _) => promocodes::from_json(&listed.unwrap_or_default().to_string()).map_err(|e| e.at("codes"))?,
    };
    if (codes.is_empty() && !automatic) || codes.len() > Stack::MAX_CODES {
        let err = promocodes::InputError::TooMany {
            field: "codes",
            count: codes.len(),
            max: Stack::MAX_CODES,
        };
        return Err(Problem::Input(err.at("codes")));
    }
    // The rest is each code's release, read as the API reads one code's (the same errors, at the
    // same paths): the listed codes differ only in their code, which is read already.
    #[derive(serde::Serialize)]
    struct WithCode<'a> {
        code: &'a Code,
        #[serde(flatten)]
        rest: &'a serde_json::Map<String, serde_json::Value>,
    }
    let stand_in = Code::parse("AUTOMATIC")?;
    let one = ReleaseRequest::from_json(&body_of(&WithCode {
        code: codes.first().unwrap_or(&stand_in),
        rest: &fields,
    })?)?;
    for code in &codes {
        require_known(env, code).await?;
    }
    if automatic {
        // The automatic promotions with a use under the key, as a retry finds them.
        let offered = automatic::offered(env, true).await?;
        match stack_parts_with(env, &[], Some(&offered), None, Some(&one.key), false).await {
            Ok(parts) => {
                let used = parts.codes.into_iter().zip(parts.recorded).filter(|(_, r)| r.is_some());
                codes.extend(
                    used.map(|(code, _)| code)
                        .filter(|code| !codes.contains(code))
                        .collect::<Vec<_>>(),
                );
            }
            Err(answer) => return answer,
        }
    }
    let mut released = Vec::with_capacity(codes.len());
    let mut refused = None;
    for code in codes {
        let call = ReleaseCall {
            code,
            key: one.key.clone(),
            reason: one.reason.clone(),
        };
        let mut response = crate::shards::send_release(env, &call.code, &call.key, body_of(&call)?).await?;
        if response.status_code() == 200 {
            released.push(response.json().await?);
        } else if refused.is_none() {
            refused = Some(response);
        }
    }
    match refused {
        Some(response) => Ok(response),
        None => crate::ledger::json_response(&StackReleases { releases: released }, 200),
    }
}

/// The quote path shared by `POST /v1/quotes` and the demo route. A quote
/// without a token (not `trusted`) may price a sharded code on its shards'
/// counts read up to a second before, as an anonymous lookup does.
pub(crate) async fn quote_through_ledger(env: &Env, code: &Code, body: String, trusted: bool) -> Answer {
    require_known(env, code).await?;
    let for_cache: &[(&str, &str)] = if trusted { &[] } else { &[(FOR_CACHE_HEADER, "1")] };
    clients::to_ledger(env, code, Call::Quote.request(code, &[], Some(body), for_cache)?).await
}

/// `POST /v1/codes/{code}/tries`: the checkout page's report of a code a
/// buyer tried, `{}`, or of a refusal it showed, `{"refused": "<rejection>"}` (public, rate
/// limited as a quote). The code's object counts it in memory and writes its
/// figures at most once a second, as it does a quote's; 204 without a body.
/// An unknown or archived code is a 404, as its lookup.
pub async fn tries(req: &Request, env: &Env, code: &str) -> Answer {
    let trusted = is_trusted(req, env)?;
    limit_public(req, env, trusted).await?;
    let code = crate::http::path_code(code)?;
    let body = read_body(req, DEFAULT_BODY_LIMIT).await?;
    promocodes::wire::TryReport::from_json(&body).map_err(|e| {
        Problem::Input(promocodes::InputError::Malformed {
            path: "body".to_owned(),
            message: e.to_string(),
        })
    })?;
    require_known(env, &code).await?;
    clients::call(env, &code, Call::Tries, Some(body)).await
}

/// `POST /v1/holds` and `POST /v1/captures`: an `Idempotency-Key` (the
/// capture token is checked by the route table).
pub async fn keyed(req: &Request, env: &Env, kind: BasketRequestKind) -> Answer {
    let key = idempotency_key(req)?;
    let body = read_body(req, BASKET_BODY_LIMIT).await?;
    let conflict = req.headers().get(TEST_CONFLICT_HEADER)?.is_some() && cfg!(feature = "conformance");
    if cfg!(feature = "conformance") && req.headers().get(TEST_STALL_HEADER)?.is_some() && names_several_codes(&body)? {
        return stack_keyed(env, kind, &key, &body, true).await;
    }
    keyed_through_ledger(env, kind, &key, body, conflict).await
}

/// Runs a hold, capture or release (`op`) and, if it is refused before the
/// code's object decides it (a token, a header, the body, an unknown code),
/// writes its one JSON log line here: the outcome `problem`, with the
/// problem's type, and `code` only for an unknown code (`null` otherwise).
pub async fn logged_if_refused(op: &str, answer: impl std::future::Future<Output = Answer>) -> Answer {
    let started = worker::Date::now().as_millis();
    let answer = answer.await;
    if let Err(problem) = &answer {
        let ms = worker::Date::now().as_millis().saturating_sub(started);
        let code = match problem {
            Problem::UnknownCode(code) => Some(code),
            _ => None,
        };
        let line = OutcomeLine {
            problem: Some(problem.slug().to_owned()),
            ms: Some(ms),
            ..OutcomeLine::new(code.map(Code::as_str), op, "problem")
        };
        if let Ok(line) = serde_json::to_string(&line) {
            worker::console_log!("{line}");
        }
    }
    answer
}

/// The hold and capture path shared by the API and the demo routes: a
/// stack's (`"codes": [...]`) all or none, else the one code's.
pub(crate) async fn keyed_through_ledger(
    env: &Env,
    kind: BasketRequestKind,
    key: &IdempotencyKey,
    body: String,
    conflict: bool,
) -> Answer {
    if names_several_codes(&body)? {
        return stack_keyed(env, kind, key, &body, false).await;
    }
    let routing = routing(&body, kind)?;
    // An unknown code is answered without addressing (and so creating) an object; a known one costs
    // the catalog's answer once per isolate.
    require_known(env, &routing.code).await?;
    let call = if kind == BasketRequestKind::Hold {
        Call::Hold
    } else {
        Call::Capture
    };
    let mut headers = vec![(IDEMPOTENCY_KEY_HEADER, key.as_str())];
    if conflict {
        headers.push((TEST_CONFLICT_HEADER, "1"));
    }
    let request = call.request(&routing.code, &[], Some(body.clone()), &headers)?;
    crate::shards::send_keyed(env, &routing.code, key, &body, request).await
}

/// `POST /v1/releases`: `{code, key, reason?}` (the capture token is checked by the route table).
pub async fn release(req: &Request, env: &Env) -> Answer {
    let body = read_body(req, DEFAULT_BODY_LIMIT).await?;
    release_through_ledger(env, body).await
}

/// The release path shared by the API and the demo routes: a stack's
/// (`"codes": [...]`) every code, else the one code's.
pub(crate) async fn release_through_ledger(env: &Env, body: String) -> Answer {
    if names_several_codes(&body)? {
        return stack_release(env, &body).await;
    }
    let release = ReleaseRequest::from_json(&body)?;
    require_known(env, &release.code).await?;
    crate::shards::send_release(env, &release.code, &release.key, body).await
}
