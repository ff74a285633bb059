//! Secrets for logging in: a password or an OAuth access token, fetched when a
//! connection is made and held only in memory, in a type that never prints itself.

use super::config::{AccountConfig, AuthMethod};
use super::ImapError;
use std::fmt;
use std::time::Duration;

/// A secret string: its Debug output is `<redacted>` and it has no Display.
#[derive(Clone)]
pub struct Secret(String);

impl Secret {
    pub fn new(s: String) -> Self {
        Self(s)
    }

    pub fn expose(&self) -> &str {
        &self.0
    }
}

impl fmt::Debug for Secret {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("<redacted>")
    }
}

/// What the server is given to log in.
#[derive(Debug, Clone)]
pub enum Credentials {
    Password(Secret),
    AccessToken(Secret),
}

/// Fetches the account's secret: runs its command, reads its variable, or refreshes
/// an OAuth token.
pub async fn credentials(account: &AccountConfig) -> Result<Credentials, ImapError> {
    match account.auth {
        AuthMethod::Login => {
            if let Some(cmd) = &account.password_cmd {
                return Ok(Credentials::Password(run_secret_cmd(
                    account, "password", cmd,
                )?));
            }
            let var = account.password_env.as_deref().unwrap_or_default();
            match std::env::var(var) {
                Ok(v) if !v.is_empty() => Ok(Credentials::Password(Secret(v))),
                _ => Err(ImapError::Credentials {
                    account: account.name.clone(),
                    what: "password",
                    reason: format!("the environment variable {var} is not set"),
                }),
            }
        }
        AuthMethod::Xoauth2 => {
            if let Some(cmd) = &account.oauth_token_cmd {
                return Ok(Credentials::AccessToken(run_secret_cmd(
                    account,
                    "OAuth access token",
                    cmd,
                )?));
            }
            Ok(Credentials::AccessToken(
                refresh_access_token(account).await?,
            ))
        }
    }
}

/// Runs `cmd` through `sh -c` and keeps the first line of its output. Neither the
/// output nor stderr goes into an error message: they may hold the secret.
pub fn run_secret_cmd(
    account: &AccountConfig,
    what: &'static str,
    cmd: &str,
) -> Result<Secret, ImapError> {
    let err = |reason: String| ImapError::Credentials {
        account: account.name.clone(),
        what,
        reason,
    };
    let limit = account.command_timeout();
    let finished = crate::shell_command::run(cmd, None, limit)
        .map_err(|e| err(format!("cannot run the command: {e}")))?
        .ok_or_else(|| {
            err(format!(
                "the command did not finish within {} s and was stopped (command_timeout_s sets the limit)",
                limit.as_secs()
            ))
        })?;
    if !finished.status.success() {
        return Err(err(format!("the command failed ({})", finished.status)));
    }
    let text =
        String::from_utf8(finished.stdout).map_err(|_| err("the output is not UTF-8".into()))?;
    let line = text.lines().next().unwrap_or("").trim_end_matches('\r');
    if line.is_empty() {
        return Err(err("the command printed nothing".into()));
    }
    Ok(Secret(line.to_string()))
}

/// Exchanges the refresh token for an access token at the provider's token endpoint
/// (RFC 6749 section 6).
async fn refresh_access_token(account: &AccountConfig) -> Result<Secret, ImapError> {
    let err = |reason: String| ImapError::Credentials {
        account: account.name.clone(),
        what: "OAuth access token",
        reason,
    };
    let (Some(cmd), Some(client_id), Some(url)) = (
        &account.oauth_refresh_token_cmd,
        &account.oauth_client_id,
        &account.oauth_token_url,
    ) else {
        return Err(err("no oauth_token_cmd nor refresh settings".into()));
    };
    let is_local = reqwest::Url::parse(url)
        .ok()
        .and_then(|u| u.host_str().map(super::config::is_loopback))
        .unwrap_or(false);
    if !url.starts_with("https://") && !is_local {
        return Err(err(format!(
            "oauth_token_url must be https (or on this machine): {url}"
        )));
    }
    let refresh = run_secret_cmd(account, "OAuth refresh token", cmd)?;
    let secret = match &account.oauth_client_secret_cmd {
        Some(c) => Some(run_secret_cmd(account, "OAuth client secret", c)?),
        None => None,
    };
    let mut form: Vec<(&str, &str)> = vec![
        ("grant_type", "refresh_token"),
        ("refresh_token", refresh.expose()),
        ("client_id", client_id),
    ];
    if let Some(s) = &secret {
        form.push(("client_secret", s.expose()));
    }
    let tls = super::session::tls_config().map_err(|e| err(format!("TLS setup: {e}")))?;
    let client = reqwest::Client::builder()
        .use_preconfigured_tls(tls)
        .timeout(Duration::from_secs(30))
        .build()
        .map_err(|e| err(format!("HTTP client: {e}")))?;
    let resp = client
        .post(url)
        .form(&form)
        .send()
        .await
        .map_err(|e| err(format!("POST {url}: {}", e.without_url())))?;
    let status = resp.status();
    let body: serde_json::Value = resp.json().await.map_err(|e| {
        err(format!(
            "the token endpoint's answer is not JSON: {}",
            e.without_url()
        ))
    })?;
    match body.get("access_token").and_then(|t| t.as_str()) {
        Some(token) if status.is_success() => Ok(Secret(token.to_string())),
        _ => {
            let why = body
                .get("error_description")
                .or_else(|| body.get("error"))
                .and_then(|v| v.as_str())
                .unwrap_or("no access_token in the answer");
            Err(err(format!("the token endpoint answered {status}: {why}")))
        }
    }
}

/// The SASL XOAUTH2 initial response (before base64, which async-imap adds).
pub fn xoauth2_response(user: &str, token: &Secret) -> String {
    format!("user={user}\x01auth=Bearer {}\x01\x01", token.expose())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn secret_never_prints() {
        let c = Credentials::Password(Secret("hunter2".into()));
        assert!(!format!("{c:?}").contains("hunter2"));
    }

    fn account_with(cmd: &str, timeout_s: u64) -> AccountConfig {
        let text = format!(
            "[[account]]\nname = \"w\"\nhost = \"h\"\nuser = \"u\"\npassword_cmd = {cmd:?}\ncommand_timeout_s = {timeout_s}\n"
        );
        super::super::config::parse_accounts(&text)
            .expect("config")
            .remove(0)
    }

    #[test]
    fn a_hanging_password_command_is_stopped() {
        let account = account_with("sleep 30; echo late", 1);
        let started = std::time::Instant::now();
        let err = run_secret_cmd(&account, "password", "sleep 30; echo late")
            .expect_err("a command past its limit fails");
        assert!(started.elapsed() < Duration::from_secs(10));
        assert!(
            err.to_string().contains("did not finish within 1 s"),
            "{err}"
        );
        let ok = run_secret_cmd(&account_with("echo s3cret", 5), "password", "echo s3cret")
            .expect("a quick command works");
        assert_eq!(ok.expose(), "s3cret");
    }

    /// Reads one HTTP request (headers and a Content-Length body) from `conn`.
    fn read_request(conn: &mut std::net::TcpStream) -> String {
        use std::io::Read;
        let mut req = Vec::new();
        let mut buf = [0u8; 4096];
        loop {
            let n = conn.read(&mut buf).unwrap_or(0);
            req.extend_from_slice(&buf[..n]);
            let text = String::from_utf8_lossy(&req).into_owned();
            if let Some(end) = text.find("\r\n\r\n") {
                let len = text
                    .lines()
                    .find_map(|l| {
                        l.to_ascii_lowercase()
                            .strip_prefix("content-length:")
                            .map(|v| v.trim().parse::<usize>().unwrap_or(0))
                    })
                    .unwrap_or(0);
                if req.len() >= end + 4 + len {
                    return text;
                }
            }
            if n == 0 {
                return text;
            }
        }
    }

    #[test]
    fn a_refresh_token_is_exchanged_for_an_access_token() {
        use std::io::Write;
        let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        let port = listener.local_addr().unwrap().port();
        let server = std::thread::spawn(move || {
            let (mut conn, _) = listener.accept().unwrap();
            let request = read_request(&mut conn);
            let body = r#"{"access_token":"fresh-token","token_type":"Bearer","expires_in":3600}"#;
            write!(
                conn,
                "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
                body.len()
            )
            .unwrap();
            request
        });
        let text = format!(
            "[[account]]\nname = \"g\"\nhost = \"imap.example.com\"\nuser = \"me\"\n\
             auth = \"xoauth2\"\noauth_refresh_token_cmd = \"echo refresh-123\"\n\
             oauth_client_id = \"cid\"\noauth_token_url = \"http://127.0.0.1:{port}/token\"\n"
        );
        let account = super::super::config::parse_accounts(&text)
            .unwrap()
            .remove(0);
        let rt = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap();
        match rt.block_on(credentials(&account)).unwrap() {
            Credentials::AccessToken(t) => assert_eq!(t.expose(), "fresh-token"),
            other => panic!("{other:?}"),
        }
        let request = server.join().unwrap();
        assert!(request.starts_with("POST /token"), "{request}");
        for part in [
            "grant_type=refresh_token",
            "refresh_token=refresh-123",
            "client_id=cid",
        ] {
            assert!(request.contains(part), "{part} in {request}");
        }
    }

    #[test]
    fn xoauth2_format() {
        let s = xoauth2_response("me@x", &Secret("tok".into()));
        assert_eq!(s, "user=me@x\x01auth=Bearer tok\x01\x01");
    }
}
