//! The load generator's HTTP client, shared by the parts of `bench` that
//! drive a real `serve` (`serve_load`, and `busy`'s listener on a
//! contestant's event stream): one client per thread, every request timed
//! and counted in one [`Stats`].

use anyhow::{Context, Result};
use serde_json::{Value, json};
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

/// What a request measures.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Kind {
    Submit,
    Page,
    Api,
}

/// Before the burst, or while it is judged.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Phase {
    Idle,
    Load,
}

/// Every request's outcome, from every thread.
#[derive(Default)]
pub(super) struct Stats {
    samples: Mutex<Vec<(Kind, Phase, Duration)>>,
    pub(super) requests: AtomicU64,
    pub(super) server_errors: AtomicU64,
    pub(super) too_many: AtomicU64,
    pub(super) failures: AtomicU64,
}

impl Stats {
    pub(super) fn record(&self, kind: Kind, phase: Phase, d: Duration) {
        self.samples
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .push((kind, phase, d));
    }

    /// The sorted latencies of one kind in one phase.
    pub(super) fn latencies(&self, kind: Kind, phase: Phase) -> Vec<Duration> {
        let samples = self.samples.lock().unwrap_or_else(|p| p.into_inner());
        let mut v: Vec<Duration> = samples
            .iter()
            .filter(|s| s.0 == kind && s.1 == phase)
            .map(|s| s.2)
            .collect();
        v.sort();
        v
    }
}

/// An answer: status, body, `Location`, and how long it took.
pub(super) struct Reply {
    pub(super) status: u16,
    pub(super) body: String,
    pub(super) location: Option<String>,
    pub(super) elapsed: Duration,
}

impl Reply {
    pub(super) fn json(&self) -> Value {
        serde_json::from_str(&self.body).unwrap_or(Value::Null)
    }
}

/// One client: a connection pool and a cookie jar (ureq's agent), and an
/// API token for `/api/` paths.
pub(super) struct Http<'a> {
    url: &'a str,
    agent: ureq::Agent,
    pub(super) token: Option<String>,
    pub(super) stats: &'a Stats,
}

type Sent = Result<ureq::http::Response<ureq::Body>, ureq::Error>;

impl<'a> Http<'a> {
    pub(super) fn new(url: &'a str, stats: &'a Stats) -> Http<'a> {
        Http::with_timeout(url, stats, Some(Duration::from_secs(120)))
    }

    /// A client for a stream that lasts as long as the server (no time
    /// limit on an answer).
    pub(super) fn streaming(url: &'a str, stats: &'a Stats) -> Http<'a> {
        Http::with_timeout(url, stats, None)
    }

    pub(super) fn with_timeout(url: &'a str, stats: &'a Stats, timeout: Option<Duration>) -> Http<'a> {
        let config = ureq::Agent::config_builder()
            .http_status_as_error(false)
            .max_redirects(0)
            .timeout_global(timeout)
            .build();
        Http {
            url,
            agent: ureq::Agent::new_with_config(config),
            token: None,
            stats,
        }
    }

    pub(super) fn get(&self, path: &str) -> Result<Reply> {
        let mut req = self.agent.get(format!("{}{path}", self.url));
        if let (Some(t), true) = (&self.token, path.starts_with("/api/")) {
            req = req.header("authorization", format!("Bearer {t}"));
        }
        self.send(|| req.call())
    }

    /// A GET whose body is read as it comes (an event stream); refused
    /// unless 200.
    pub(super) fn open(&self, path: &str) -> Result<ureq::BodyReader<'static>> {
        let r = self.agent.get(format!("{}{path}", self.url)).call()?;
        anyhow::ensure!(r.status() == 200, "GET {path}: {}", r.status());
        Ok(r.into_body().into_reader())
    }

    pub(super) fn post_json(&self, path: &str, body: &Value) -> Result<Reply> {
        let mut req = self.agent.post(format!("{}{path}", self.url));
        if let Some(t) = &self.token {
            req = req.header("authorization", format!("Bearer {t}"));
        }
        self.send(|| req.send_json(body))
    }

    pub(super) fn post_form(&self, path: &str, fields: &[(&str, &str)]) -> Result<Reply> {
        let req = self.agent.post(format!("{}{path}", self.url));
        self.send(|| req.send_form(fields.iter().copied()))
    }

    /// Sends, reads the whole answer, and counts it.
    pub(super) fn send(&self, f: impl FnOnce() -> Sent) -> Result<Reply> {
        let start = Instant::now();
        self.stats.requests.fetch_add(1, Ordering::Relaxed);
        let mut r = f().inspect_err(|_| {
            self.stats.failures.fetch_add(1, Ordering::Relaxed);
        })?;
        let location = r
            .headers()
            .get("location")
            .and_then(|v| v.to_str().ok())
            .map(String::from);
        let body = r
            .body_mut()
            .with_config()
            .limit(64 << 20)
            .read_to_string()
            .unwrap_or_default();
        let status = r.status().as_u16();
        match status {
            500.. => self.stats.server_errors.fetch_add(1, Ordering::Relaxed),
            429 => self.stats.too_many.fetch_add(1, Ordering::Relaxed),
            _ => 0,
        };
        Ok(Reply {
            status,
            body,
            location,
            elapsed: start.elapsed(),
        })
    }

    /// An API token for a name, used from now on.
    pub(super) fn api_sign_in(&mut self, name: &str, password: &str) -> Result<()> {
        let r = self.post_json("/api/v1/token", &json!({"name": name, "password": password}))?;
        let token = r.json()["token"].as_str().map(String::from);
        self.token = Some(token.with_context(|| format!("token for {name}: {} {}", r.status, r.body))?);
        Ok(())
    }

    /// A session through the sign-in form, as a browser gets one.
    pub(super) fn form_sign_in(&self, name: &str, password: &str) -> Result<()> {
        let page = self.get("/login")?;
        let csrf = page
            .body
            .split("name=\"csrf\" value=\"")
            .nth(1)
            .and_then(|rest| rest.split('"').next())
            .context("no CSRF token on /login")?
            .to_string();
        let r = self.post_form(
            "/login",
            &[("csrf", &csrf), ("name", name), ("password", password)],
        )?;
        anyhow::ensure!(
            r.status == 303 && r.location.as_deref() != Some("/login"),
            "signing in as {name}: {} {}",
            r.status,
            r.body
        );
        Ok(())
    }
}
