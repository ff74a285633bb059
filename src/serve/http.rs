//! The HTTP/JSON API (opt-in with `quoth serve --http ADDR`), on the server's tokio
//! runtime:
//!
//! - `GET /v1/search?q=…&mode=…&limit=…`: the object of `quoth search --json`
//! - `POST /v1/ask` with `{"question", "thread", "session", "widen"}`: the object of
//!   `quoth ask --json`; with `Accept: text/event-stream` it streams as server-sent
//!   events (`rewrite`, `note` and `delta` events, then one `final` event holding the
//!   whole object, or an `error` event)
//! - `GET /v1/threads?limit=…`, `GET /v1/messages/{message-id}`, `GET /v1/status`
//! - `GET /v1/facts?q=…`: the object of `quoth facts --json` (a thread's hex id or
//!   words); `GET /v1/people?q=…`: the object of `quoth people --json`;
//!   `GET /v1/threads/{id}/graph`: a thread's people, organisations and facts
//!
//! Every request needs `Authorization: Bearer <token>`, the token being the content
//! of `<data dir>/api-token`; without it the answer is 401.

use super::api::Api;
use super::protocol::{ApiError, ErrorKind, EventKind, Op};
use axum::extract::{Path, Query, Request, State};
use axum::http::{header, HeaderMap, StatusCode};
use axum::middleware::{self, Next};
use axum::response::sse::{Event as SseEvent, Sse};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use serde::Deserialize;

use std::convert::Infallible;
use std::sync::Arc;
use tokio::sync::mpsc;

#[derive(Clone)]
struct AppState {
    api: Arc<Api>,
    token: Arc<String>,
}

pub fn router(api: Arc<Api>, token: String) -> Router {
    let state = AppState {
        api,
        token: Arc::new(token),
    };
    Router::new()
        .route("/v1/search", get(search))
        .route("/v1/ask", post(ask))
        .route("/v1/threads", get(threads))
        .route("/v1/messages/{id}", get(message))
        .route("/v1/status", get(status))
        .route("/v1/facts", get(facts))
        .route("/v1/people", get(people))
        .route("/v1/threads/{id}/graph", get(thread_graph))
        .layer(middleware::from_fn_with_state(state.clone(), authorise))
        .with_state(state)
}

/// Compares in time independent of where the strings differ.
fn same_secret(a: &[u8], b: &[u8]) -> bool {
    a.len() == b.len() && a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

async fn authorise(State(state): State<AppState>, request: Request, next: Next) -> Response {
    let given = request
        .headers()
        .get(header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.strip_prefix("Bearer "))
        .map(str::trim);
    match given {
        Some(t) if same_secret(t.as_bytes(), state.token.as_bytes()) => next.run(request).await,
        _ => (
            StatusCode::UNAUTHORIZED,
            [(header::WWW_AUTHENTICATE, "Bearer")],
            Json(ApiError::new(
                ErrorKind::Refused,
                "a bearer token is needed: the content of <data dir>/api-token",
            )),
        )
            .into_response(),
    }
}

fn status_of(e: &ApiError) -> StatusCode {
    match e.kind {
        ErrorKind::BadRequest | ErrorKind::Query => StatusCode::BAD_REQUEST,
        ErrorKind::NotFound => StatusCode::NOT_FOUND,
        ErrorKind::Refused => StatusCode::FORBIDDEN,
        ErrorKind::Internal => StatusCode::INTERNAL_SERVER_ERROR,
    }
}

/// Runs an operation on the blocking pool and answers with its JSON.
async fn call(api: Arc<Api>, op: Op) -> Response {
    let result = tokio::task::spawn_blocking(move || api.call(op, &mut |_, _| {})).await;
    match result {
        Ok(Ok(v)) => Json(v).into_response(),
        Ok(Err(e)) => (status_of(&e), Json(e)).into_response(),
        Err(e) => {
            let e = ApiError::new(ErrorKind::Internal, format!("the request failed: {e}"));
            (status_of(&e), Json(e)).into_response()
        }
    }
}

#[derive(Deserialize)]
struct SearchParams {
    q: String,
    mode: Option<String>,
    limit: Option<usize>,
    #[serde(default)]
    rerank: bool,
}

async fn search(State(s): State<AppState>, Query(p): Query<SearchParams>) -> Response {
    call(
        s.api,
        Op::Search {
            query: p.q,
            mode: p.mode,
            limit: p.limit,
            rerank: p.rerank,
        },
    )
    .await
}

#[derive(Deserialize)]
struct LookupParams {
    q: String,
}

async fn facts(State(s): State<AppState>, Query(p): Query<LookupParams>) -> Response {
    call(s.api, Op::Facts { query: p.q }).await
}

async fn people(State(s): State<AppState>, Query(p): Query<LookupParams>) -> Response {
    call(s.api, Op::People { query: p.q }).await
}

async fn thread_graph(State(s): State<AppState>, Path(id): Path<String>) -> Response {
    call(s.api, Op::ThreadGraph { thread: id }).await
}

#[derive(Deserialize)]
struct AskBody {
    question: String,
    thread: Option<String>,
    session: Option<String>,
    #[serde(default)]
    widen: bool,
    #[serde(default)]
    llm: bool,
}

async fn ask(State(s): State<AppState>, headers: HeaderMap, Json(body): Json<AskBody>) -> Response {
    let op = Op::Ask {
        question: body.question,
        thread: body.thread,
        widen: body.widen,
        session: body.session,
        llm: body.llm,
    };
    let wants_stream = headers
        .get(header::ACCEPT)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.contains("text/event-stream"));
    if !wants_stream {
        return call(s.api, op).await;
    }
    let (tx, rx) = mpsc::unbounded_channel::<SseEvent>();
    let api = s.api.clone();
    tokio::task::spawn_blocking(move || {
        let mut on_event = |kind: EventKind, text: String| {
            let name = match kind {
                EventKind::Rewrite => "rewrite",
                EventKind::Delta => "delta",
                EventKind::Note => "note",
                EventKind::Progress => "progress",
            };
            let _ = tx.send(SseEvent::default().event(name).data(text));
        };
        let last = match api.call(op, &mut on_event) {
            Ok(v) => SseEvent::default().event("final").data(v.to_string()),
            Err(e) => SseEvent::default()
                .event("error")
                .data(serde_json::to_string(&e).unwrap_or_default()),
        };
        let _ = tx.send(last);
    });
    let stream = futures_util::stream::unfold(rx, |mut rx| async move {
        rx.recv().await.map(|e| (Ok::<_, Infallible>(e), rx))
    });
    Sse::new(stream).into_response()
}

#[derive(Deserialize)]
struct ThreadParams {
    limit: Option<usize>,
}

async fn threads(State(s): State<AppState>, Query(p): Query<ThreadParams>) -> Response {
    call(s.api, Op::Threads { limit: p.limit }).await
}

async fn message(State(s): State<AppState>, Path(id): Path<String>) -> Response {
    call(s.api, Op::Message { message: id }).await
}

async fn status(State(s): State<AppState>) -> Response {
    call(s.api, Op::Status).await
}
