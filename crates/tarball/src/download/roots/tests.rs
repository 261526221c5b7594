use std::sync::{Arc, OnceLock};

use rustls::client::danger::ServerCertVerifier;
use rustls::pki_types::pem::PemObject;
use rustls::pki_types::{CertificateDer, ServerName, UnixTime};

use super::{SystemRoots, client_config};

/// The CLI tests' registry certificate, signed by a private CA no system
/// trusts.
fn private_server_cert() -> CertificateDer<'static> {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../cli/tests/fixtures/tls/server.pem"
    );
    CertificateDer::from_pem_file(path).unwrap()
}

fn roots() -> SystemRoots {
    SystemRoots {
        provider: Arc::new(rustls::crypto::ring::default_provider()),
        loaded: OnceLock::new(),
    }
}

#[test]
fn the_roots_are_loaded_by_the_first_certificate_to_verify() {
    let roots = roots();
    assert!(!roots.supported_verify_schemes().is_empty());
    assert!(roots.loaded.get().is_none(), "loaded before any handshake");

    let name = ServerName::try_from("localhost").unwrap();
    let verified =
        roots.verify_server_cert(&private_server_cert(), &[], &name, &[], UnixTime::now());
    let error = verified.expect_err("a private CA's certificate is not trusted");
    assert!(
        matches!(
            error,
            rustls::Error::InvalidCertificate(rustls::CertificateError::UnknownIssuer)
        ),
        "{error:?}"
    );
    assert!(
        roots.loaded.get().is_some(),
        "not loaded by the verification"
    );
}

#[test]
fn the_configuration_offers_what_reqwest_offers_by_default() {
    let config = client_config().unwrap();
    assert_eq!(
        config.alpn_protocols,
        [b"h2".to_vec(), b"http/1.1".to_vec()]
    );
    assert!(config.enable_sni);
    assert!(!config.client_auth_cert_resolver.has_certs());
}
