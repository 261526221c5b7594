//! The system's root certificates, loaded on the first TLS handshake.
//!
//! Loading them reads `/etc/ssl/certs` (the bundle, then ~140 files) and
//! parses every certificate. reqwest does it when the client is built,
//! before the first request: 22 ms of alotta's cold install went to it
//! before the first connection (first `connect` at 45 ms against 23 ms
//! with one certificate in `SSL_CERT_FILE` and none in `SSL_CERT_DIR`,
//! `strace -e connect`, 3 runs each), and an install or resolution from
//! an `http:` registry never uses them. Here they are loaded by the first
//! certificate to verify, with the same verifier reqwest would build
//! (`rustls-platform-verifier`).

use std::sync::{Arc, OnceLock};

use rustls::client::danger::{HandshakeSignatureValid, ServerCertVerified, ServerCertVerifier};
use rustls::crypto::{CryptoProvider, verify_tls12_signature, verify_tls13_signature};
use rustls::pki_types::{CertificateDer, ServerName, UnixTime};
use rustls::{DigitallySignedStruct, SignatureScheme};

/// A TLS configuration as reqwest builds one by default (TLS 1.2 and 1.3,
/// ALPN `h2` then `http/1.1`, no client certificate) whose verifier
/// loads the system's roots when first asked.
pub(super) fn client_config() -> Result<rustls::ClientConfig, rustls::Error> {
    let provider = CryptoProvider::get_default()
        .cloned()
        .unwrap_or_else(|| Arc::new(rustls::crypto::ring::default_provider()));
    let verifier = Arc::new(SystemRoots {
        provider: Arc::clone(&provider),
        loaded: OnceLock::new(),
    });
    let mut config = rustls::ClientConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()?
        .dangerous()
        .with_custom_certificate_verifier(verifier)
        .with_no_client_auth();
    config.alpn_protocols = vec![b"h2".to_vec(), b"http/1.1".to_vec()];
    Ok(config)
}

/// Verifies server certificates against the system's roots, loaded once.
#[derive(Debug)]
pub(super) struct SystemRoots {
    provider: Arc<CryptoProvider>,
    loaded: OnceLock<Result<rustls_platform_verifier::Verifier, rustls::Error>>,
}

impl SystemRoots {
    fn verifier(&self) -> Result<&rustls_platform_verifier::Verifier, rustls::Error> {
        self.loaded
            .get_or_init(|| rustls_platform_verifier::Verifier::new(Arc::clone(&self.provider)))
            .as_ref()
            .map_err(Clone::clone)
    }
}

impl ServerCertVerifier for SystemRoots {
    fn verify_server_cert(
        &self,
        end_entity: &CertificateDer<'_>,
        intermediates: &[CertificateDer<'_>],
        server_name: &ServerName<'_>,
        ocsp_response: &[u8],
        now: UnixTime,
    ) -> Result<ServerCertVerified, rustls::Error> {
        self.verifier()?.verify_server_cert(
            end_entity,
            intermediates,
            server_name,
            ocsp_response,
            now,
        )
    }

    // The signatures are checked with the provider's algorithms alone, as
    // the platform verifier's WebPKI verifier does: no roots needed.
    fn verify_tls12_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &DigitallySignedStruct,
    ) -> Result<HandshakeSignatureValid, rustls::Error> {
        verify_tls12_signature(
            message,
            cert,
            dss,
            &self.provider.signature_verification_algorithms,
        )
    }

    fn verify_tls13_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &DigitallySignedStruct,
    ) -> Result<HandshakeSignatureValid, rustls::Error> {
        verify_tls13_signature(
            message,
            cert,
            dss,
            &self.provider.signature_verification_algorithms,
        )
    }

    fn supported_verify_schemes(&self) -> Vec<SignatureScheme> {
        self.provider
            .signature_verification_algorithms
            .supported_schemes()
    }
}

#[cfg(test)]
mod tests;
