//! Opening a session: TCP, TLS (implicit or STARTTLS), the greeting, LOGIN or
//! XOAUTH2, and the server's capabilities.

use super::{timed, ImapSession, Stream, Transport};
use crate::source::imap::config::{AccountConfig, TlsMode};
use crate::source::imap::credentials::{credentials, xoauth2_response, Credentials};
use crate::source::imap::ImapError;
use async_imap::Client;
use std::sync::Arc;
use std::time::Duration;
use tokio::net::TcpStream;
use tokio_rustls::rustls;

/// The TLS settings for IMAP and for the OAuth token endpoint: rustls with the ring
/// provider and Mozilla's root certificates, so no system OpenSSL is involved.
pub fn tls_config() -> Result<rustls::ClientConfig, rustls::Error> {
    let mut roots = rustls::RootCertStore::empty();
    roots.extend(webpki_roots::TLS_SERVER_ROOTS.iter().cloned());
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    Ok(rustls::ClientConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()?
        .with_root_certificates(roots)
        .with_no_client_auth())
}

struct XOAuth2(String);

impl async_imap::Authenticator for XOAuth2 {
    type Response = String;
    fn process(&mut self, _challenge: &[u8]) -> String {
        std::mem::take(&mut self.0)
    }
}

/// Connects, secures and logs in. The secret is fetched first, so a broken
/// password command fails before the server is bothered.
pub async fn connect(account: &AccountConfig, timeout: Duration) -> Result<ImapSession, ImapError> {
    account.validate()?;
    let name = account.name.as_str();
    let creds = credentials(account).await?;
    let (host, port) = (account.host.as_str(), account.port());
    let tcp = timed(name, "connect", timeout, async {
        TcpStream::connect((host, port))
            .await
            .map_err(|source| ImapError::Connect {
                account: name.to_string(),
                host: host.to_string(),
                port,
                source,
            })
    })
    .await?;
    let _ = tcp.set_nodelay(true);
    let stream: Stream = match account.tls {
        TlsMode::Plain => Box::new(tcp),
        TlsMode::Implicit => {
            Box::new(timed(name, "TLS handshake", timeout, tls(account, tcp)).await?)
        }
        TlsMode::Starttls => {
            let mut client = Client::new(tcp);
            timed(name, "greeting", timeout, greeting(name, &mut client)).await?;
            timed(name, "STARTTLS", timeout, async {
                client
                    .run_command_and_check_ok("STARTTLS", None)
                    .await
                    .map_err(|e| ImapError::protocol(name, "STARTTLS", e))
            })
            .await?;
            let tcp = client.into_inner();
            Box::new(timed(name, "TLS handshake", timeout, tls(account, tcp)).await?)
        }
    };
    let mut client = Client::new(stream);
    if account.tls != TlsMode::Starttls {
        timed(name, "greeting", timeout, greeting(name, &mut client)).await?;
    }
    let auth_err = |e: async_imap::error::Error| match e {
        async_imap::error::Error::No(reason) | async_imap::error::Error::Bad(reason) => {
            ImapError::Auth {
                account: name.to_string(),
                user: account.user.clone(),
                reason,
            }
        }
        other => ImapError::protocol(name, "login", other),
    };
    let mut session = timed(name, "login", timeout, async {
        match creds {
            Credentials::Password(pw) => client
                .login(&account.user, pw.expose())
                .await
                .map_err(|(e, _)| auth_err(e)),
            Credentials::AccessToken(token) => client
                .authenticate("XOAUTH2", XOAuth2(xoauth2_response(&account.user, &token)))
                .await
                .map_err(|(e, _)| auth_err(e)),
        }
    })
    .await?;
    let caps = timed(name, "CAPABILITY", timeout, async {
        session
            .capabilities()
            .await
            .map_err(|e| ImapError::protocol(name, "CAPABILITY", e))
    })
    .await?;
    Ok(ImapSession {
        account: name.to_string(),
        condstore: caps.has_str("CONDSTORE"),
        can_move: caps.has_str("MOVE"),
        uidplus: caps.has_str("UIDPLUS"),
        session,
        timeout,
    })
}

async fn greeting<T: Transport>(account: &str, client: &mut Client<T>) -> Result<(), ImapError> {
    match client.read_response().await {
        Ok(Some(_)) => Ok(()),
        Ok(None) => Err(ImapError::protocol(
            account,
            "greeting",
            async_imap::error::Error::ConnectionLost,
        )),
        Err(e) => Err(ImapError::protocol(account, "greeting", e.into())),
    }
}

async fn tls(
    account: &AccountConfig,
    tcp: TcpStream,
) -> Result<tokio_rustls::client::TlsStream<TcpStream>, ImapError> {
    let err = |reason: String| ImapError::Tls {
        account: account.name.clone(),
        host: account.host.clone(),
        reason,
    };
    let host = account.host.trim_start_matches('[').trim_end_matches(']');
    let server_name = rustls::pki_types::ServerName::try_from(host.to_string())
        .map_err(|e| err(format!("not a valid server name: {e}")))?;
    let config = tls_config().map_err(|e| err(e.to_string()))?;
    tokio_rustls::TlsConnector::from(Arc::new(config))
        .connect(server_name, tcp)
        .await
        .map_err(|e| err(e.to_string()))
}
