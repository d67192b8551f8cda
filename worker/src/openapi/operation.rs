//! An operation of the description as a route's row gives it: its id, tag,
//! summary and prose, its parameters, request body and answers (each
//! answer's status, description, body and headers, a problem answer by the
//! problem types it may carry). Bodies name Rust types; their schemas come
//! from the types ([`promocodes::schema`]).

use schemars::{JsonSchema, SchemaGenerator};
use serde_json::{json, Map, Value};

use super::r;
use crate::routes::Access;

/// Builds a piece of the description with the schema generator (the types a
/// schema names are registered as it is built).
pub type Build = fn(&mut SchemaGenerator) -> Value;

/// A parameter or a header: a shared component's name, or its own.
enum Part {
    Shared(&'static str),
    Own(Build),
}

/// An answer's body.
enum Body {
    /// A schema for a media type.
    Schema(&'static str, Build),
    /// `application/problem+json`: a `Problem` of these types (slugs), with
    /// more constraints when given.
    Problems(&'static [&'static str], Option<Build>),
}

/// One answer of an operation.
struct Answer {
    status: u16,
    description: &'static str,
    bodies: Vec<Body>,
    headers: Vec<(&'static str, Part)>,
}

/// One operation: what a route's row says of itself in the description.
pub struct Operation {
    id: &'static str,
    tag: &'static str,
    summary: &'static str,
    description: Option<&'static str>,
    security: Option<Build>,
    parameters: Vec<Part>,
    body: Option<(Option<&'static str>, Build)>,
    answers: Vec<Answer>,
}

impl Operation {
    /// An operation with its `operationId`, its tag and its summary.
    pub fn new(id: &'static str, tag: &'static str, summary: &'static str) -> Self {
        Operation {
            id,
            tag,
            summary,
            description: None,
            security: None,
            parameters: Vec::new(),
            body: None,
            answers: Vec::new(),
        }
    }

    /// Its description.
    pub fn describe(mut self, text: &'static str) -> Self {
        self.description = Some(text);
        self
    }

    /// Its security requirements, when not the ones its route's access implies.
    pub fn security(mut self, build: Build) -> Self {
        self.security = Some(build);
        self
    }

    /// A shared parameter (`components.parameters`).
    pub fn param(mut self, name: &'static str) -> Self {
        self.parameters.push(Part::Shared(name));
        self
    }

    /// A parameter of its own.
    pub fn param_with(mut self, build: Build) -> Self {
        self.parameters.push(Part::Own(build));
        self
    }

    /// Its JSON request body: a `T` (required).
    pub fn body<T: JsonSchema>(self, description: Option<&'static str>) -> Self {
        self.body_with(description, r::<T>)
    }

    /// Its JSON request body, a schema of its own (required).
    pub fn body_with(mut self, description: Option<&'static str>, build: Build) -> Self {
        self.body = Some((description, build));
        self
    }

    fn answer(mut self, status: u16, description: &'static str, body: Option<Body>) -> Self {
        self.answers.push(Answer {
            status,
            description,
            bodies: body.into_iter().collect(),
            headers: Vec::new(),
        });
        self
    }

    /// An answer with a JSON `T`.
    pub fn answers<T: JsonSchema>(self, status: u16, description: &'static str) -> Self {
        self.content(status, description, "application/json", r::<T>)
    }

    /// An answer with a body of `media`, its schema of its own.
    pub fn content(self, status: u16, description: &'static str, media: &'static str, build: Build) -> Self {
        self.answer(status, description, Some(Body::Schema(media, build)))
    }

    /// Another media type for the last answer.
    pub fn also(mut self, media: &'static str, build: Build) -> Self {
        self.last().bodies.push(Body::Schema(media, build));
        self
    }

    /// An answer without a body.
    pub fn empty(self, status: u16, description: &'static str) -> Self {
        self.answer(status, description, None)
    }

    /// A problem answer, of one of these types (`/problems/<slug>`).
    pub fn problems(self, status: u16, description: &'static str, slugs: &'static [&'static str]) -> Self {
        self.answer(status, description, Some(Body::Problems(slugs, None)))
    }

    /// A problem answer of one of these types, with more constraints.
    pub fn problems_with(
        self,
        status: u16,
        description: &'static str,
        slugs: &'static [&'static str],
        more: Build,
    ) -> Self {
        self.answer(status, description, Some(Body::Problems(slugs, Some(more))))
    }

    /// A shared header (`components.headers`) of the last answer.
    pub fn header(mut self, name: &'static str, component: &'static str) -> Self {
        self.last().headers.push((name, Part::Shared(component)));
        self
    }

    /// The CORS headers a public route's answer carries (`Vary`,
    /// `Access-Control-Allow-Origin`, `Access-Control-Expose-Headers`), on the
    /// last answer.
    pub fn cors(self) -> Self {
        self.header("Vary", "Vary")
            .header("Access-Control-Allow-Origin", "AccessControlAllowOrigin")
            .header("Access-Control-Expose-Headers", "AccessControlExposeHeaders")
    }

    /// A header of its own of the last answer.
    pub fn header_with(mut self, name: &'static str, build: Build) -> Self {
        self.last().headers.push((name, Part::Own(build)));
        self
    }

    fn last(&mut self) -> &mut Answer {
        self.answers.last_mut().expect("an answer before its headers")
    }

    /// The problem types (slugs) its answers name.
    pub fn problem_slugs(&self) -> impl Iterator<Item = &'static str> + '_ {
        self.answers.iter().flat_map(|a| &a.bodies).flat_map(|b| match b {
            Body::Problems(slugs, _) => slugs.iter().copied(),
            Body::Schema(..) => [].iter().copied(),
        })
    }

    /// The operation as the description writes it, for a route of `access`.
    ///
    /// Answers' schemas come from `g`, the request body's from `requests`.
    pub fn to_json(&self, access: Access, g: &mut SchemaGenerator, requests: &mut SchemaGenerator) -> Value {
        let mut op = Map::new();
        op.insert("operationId".into(), self.id.into());
        op.insert("tags".into(), json!([self.tag]));
        op.insert("summary".into(), self.summary.into());
        let security = match (self.security, access) {
            (Some(build), _) => build(g),
            (None, Access::Admin) => json!([{"admin": []}]),
            (None, Access::Capture) => json!([{"capture": []}]),
            (None, Access::Public | Access::Open) => json!([{}]),
        };
        op.insert("security".into(), security);
        if let Some(text) = self.description {
            op.insert("description".into(), text.into());
        }
        if !self.parameters.is_empty() {
            let parameters = self.parameters.iter().map(|p| part(p, "parameters", g)).collect();
            op.insert("parameters".into(), Value::Array(parameters));
        }
        if let Some((description, build)) = self.body {
            let mut body = Map::new();
            body.insert("required".into(), true.into());
            if let Some(text) = description {
                body.insert("description".into(), text.into());
            }
            body.insert(
                "content".into(),
                json!({"application/json": {"schema": build(requests)}}),
            );
            op.insert("requestBody".into(), body.into());
        }
        let mut responses = Map::new();
        for answer in &self.answers {
            let mut response = Map::new();
            response.insert("description".into(), answer.description.into());
            if !answer.bodies.is_empty() {
                let content: Map<String, Value> = answer.bodies.iter().map(|b| body(b, g)).collect();
                response.insert("content".into(), content.into());
            }
            if !answer.headers.is_empty() {
                let headers: Map<String, Value> = answer
                    .headers
                    .iter()
                    .map(|(name, p)| ((*name).to_owned(), part(p, "headers", g)))
                    .collect();
                response.insert("headers".into(), headers.into());
            }
            responses.insert(answer.status.to_string(), response.into());
        }
        op.insert("responses".into(), responses.into());
        op.into()
    }
}

fn part(part: &Part, components: &str, g: &mut SchemaGenerator) -> Value {
    match part {
        Part::Shared(name) => json!({"$ref": format!("#/components/{components}/{name}")}),
        Part::Own(build) => build(g),
    }
}

/// A `Problem` of these types: `{"$ref": Problem, "properties": {"type": {"enum": [...]}}}`.
pub fn problem_of(slugs: &[&str], g: &mut SchemaGenerator) -> Value {
    let types: Vec<String> = slugs.iter().map(|slug| format!("/problems/{slug}")).collect();
    super::with_ref::<promocodes::wire::ProblemDetails>(
        g,
        json!({"type": "object", "properties": {"type": {"enum": types}}}),
    )
}

fn body(body: &Body, g: &mut SchemaGenerator) -> (String, Value) {
    match body {
        Body::Schema(media, build) => ((*media).to_owned(), json!({"schema": build(g)})),
        Body::Problems(slugs, more) => {
            let mut schema = problem_of(slugs, g);
            if let (Some(build), Some(object)) = (more, schema.as_object_mut()) {
                if let Value::Object(more) = build(g) {
                    object.extend(more);
                }
            }
            ("application/problem+json".to_owned(), json!({"schema": schema}))
        }
    }
}
