//! Downloads against the loopback registry: success, retries, failures.

mod support;

use std::time::{Duration, Instant};

use pacquet_tarball::{DownloadRequest, FetcherOptions, TarballError};
use pacquet_testing::{Fault, Registry};
use support::{code, fast_options, fetcher};

fn request<'a>(url: &'a str, integrity: Option<&'a str>) -> DownloadRequest<'a> {
    DownloadRequest {
        url,
        integrity,
        authorization: None,
        package_id: "pq-plain@1.0.0",
        accept: None,
    }
}

fn fixture(registry: &Registry) -> (String, Vec<u8>, String) {
    let pkg = registry
        .packages()
        .unwrap()
        .get("pq-plain", "1.0.0")
        .unwrap();
    (
        registry.tarball_url("pq-plain", "1.0.0"),
        pkg.tarball.clone(),
        pkg.integrity.clone(),
    )
}

#[tokio::test]
async fn downloads_and_verifies_a_fixture() {
    let registry = support::start_registry();
    let (url, tarball, integrity) = fixture(&registry);
    let fetcher = fetcher(fast_options());
    let bytes = fetcher
        .download(&request(&url, Some(&integrity)))
        .await
        .unwrap();
    assert_eq!(bytes, tarball);
    assert_eq!(registry.tarball_requests("pq-plain", "1.0.0"), 1);
    // Without an integrity the bytes are returned unchecked.
    let bytes = fetcher.download(&request(&url, None)).await.unwrap();
    assert_eq!(bytes, tarball);
}

#[tokio::test]
async fn integrity_mismatch_is_retried_then_reported() {
    let registry = support::start_registry();
    let (url, tarball, _) = fixture(&registry);
    let wrong = support::sri_sha512(b"something else");
    let err = fetcher(fast_options())
        .download(&request(&url, Some(&wrong)))
        .await
        .unwrap_err();
    assert_eq!(code(&err), "ERR_PNPM_TARBALL_INTEGRITY");
    assert_eq!(
        err.to_string(),
        format!(
            "Failed to verify the integrity of {url}: Integrity check failed.\n\tWanted: {wrong}\n\tActual: {}",
            support::sri_sha512(&tarball)
        )
    );
    let help = miette::Diagnostic::help(&err).unwrap().to_string();
    assert!(help.contains("--update-checksums"), "{help}");
    assert_eq!(registry.tarball_requests("pq-plain", "1.0.0"), 3);
}

#[tokio::test]
async fn a_corrupted_body_once_is_healed_by_the_retry() {
    let registry = support::start_registry();
    let (url, tarball, integrity) = fixture(&registry);
    registry.fail_next(&url, Fault::WrongBody);
    let bytes = fetcher(fast_options())
        .download(&request(&url, Some(&integrity)))
        .await
        .unwrap();
    assert_eq!(bytes, tarball);
    assert_eq!(registry.tarball_requests("pq-plain", "1.0.0"), 2);
}

#[tokio::test]
async fn not_found_is_not_retried() {
    let registry = support::start_registry();
    let (url, _, integrity) = fixture(&registry);
    registry.fail_next(&url, Fault::Status(404));
    let err = fetcher(fast_options())
        .download(&request(&url, Some(&integrity)))
        .await
        .unwrap_err();
    assert_eq!(code(&err), "ERR_PNPM_TARBALL_HTTP_STATUS");
    assert_eq!(
        err.to_string(),
        format!("Tarball server returned HTTP 404 for {url}")
    );
    assert_eq!(registry.tarball_requests("pq-plain", "1.0.0"), 1);
}

#[tokio::test]
async fn unauthorized_is_not_retried_and_never_shows_the_token() {
    let registry = support::start_registry();
    let (url, _, integrity) = fixture(&registry);
    registry.fail_next(&url, Fault::Status(401));
    let secret = "Bearer npm_SECRET_TOKEN_123";
    let err = fetcher(fast_options())
        .download(&DownloadRequest {
            authorization: Some(secret),
            ..request(&url, Some(&integrity))
        })
        .await
        .unwrap_err();
    assert!(matches!(err, TarballError::HttpStatus { status: 401, .. }));
    assert_eq!(registry.tarball_requests("pq-plain", "1.0.0"), 1);
    let shown = format!("{err} {err:?}");
    let shown = format!("{shown} {:?}", miette::Report::new(err));
    assert!(!shown.contains("SECRET"), "{shown}");
}

#[tokio::test]
async fn server_errors_are_retried_until_success() {
    let registry = support::start_registry();
    let (url, tarball, integrity) = fixture(&registry);
    registry.fail_next(&url, Fault::Status(500));
    registry.fail_next(&url, Fault::Status(503));
    let bytes = fetcher(fast_options())
        .download(&request(&url, Some(&integrity)))
        .await
        .unwrap();
    assert_eq!(bytes, tarball);
    assert_eq!(registry.tarball_requests("pq-plain", "1.0.0"), 3);
}

/// pnpm 12.21 retries every status but 401, 403 and 404: rate limiting and
/// request timeouts included.
#[tokio::test]
async fn too_many_requests_and_request_timeout_are_retried() {
    let registry = support::start_registry();
    let (url, tarball, integrity) = fixture(&registry);
    registry.fail_next(&url, Fault::Status(429));
    registry.fail_next(&url, Fault::Status(408));
    let bytes = fetcher(fast_options())
        .download(&request(&url, Some(&integrity)))
        .await
        .unwrap();
    assert_eq!(bytes, tarball);
    assert_eq!(registry.tarball_requests("pq-plain", "1.0.0"), 3);
}

#[tokio::test]
async fn server_errors_beyond_the_retries_are_reported() {
    let registry = support::start_registry();
    let (url, _, integrity) = fixture(&registry);
    for _ in 0..3 {
        registry.fail_next(&url, Fault::Status(500));
    }
    let err = fetcher(fast_options())
        .download(&request(&url, Some(&integrity)))
        .await
        .unwrap_err();
    assert_eq!(
        err.to_string(),
        format!("Tarball server returned HTTP 500 for {url}")
    );
    assert_eq!(registry.tarball_requests("pq-plain", "1.0.0"), 3);
}

#[tokio::test]
async fn truncated_body_is_a_fetch_error_and_retried() {
    let registry = support::start_registry();
    let (url, tarball, integrity) = fixture(&registry);
    registry.fail_next(&url, Fault::Truncate);
    let no_retries = FetcherOptions {
        retries: 0,
        ..fast_options()
    };
    let err = fetcher(no_retries)
        .download(&request(&url, Some(&integrity)))
        .await
        .unwrap_err();
    assert_eq!(code(&err), "ERR_PNPM_TARBALL_FETCH_TARBALL");
    assert!(
        err.to_string()
            .starts_with(&format!("Failed to fetch {url}: ")),
        "{err}"
    );

    registry.fail_next(&url, Fault::Truncate);
    registry.fail_next(&url, Fault::Reset);
    let bytes = fetcher(fast_options())
        .download(&request(&url, Some(&integrity)))
        .await
        .unwrap();
    assert_eq!(bytes, tarball);
}

#[tokio::test]
async fn a_stalled_server_times_out() {
    let registry = support::start_registry();
    let (url, _, integrity) = fixture(&registry);
    // Within one attempt a request without response is sent three times.
    for _ in 0..3 {
        registry.fail_next(&url, Fault::Stall);
    }
    let opts = FetcherOptions {
        retries: 0,
        fetch_timeout: Duration::from_millis(300),
        ..fast_options()
    };
    let started = Instant::now();
    let err = fetcher(opts)
        .download(&request(&url, Some(&integrity)))
        .await
        .unwrap_err();
    assert!(started.elapsed() < Duration::from_secs(5));
    assert_eq!(code(&err), "ERR_PNPM_TARBALL_FETCH_TARBALL");
    assert!(err.to_string().contains("timed out"), "{err}");
    assert_eq!(registry.tarball_requests("pq-plain", "1.0.0"), 3);
}

/// pnpm 12 sends a request that got no response (closed, timed out) three
/// times per attempt, but a body that breaks only once.
#[tokio::test]
async fn no_response_is_resent_within_an_attempt_but_a_broken_body_is_not() {
    let registry = support::start_registry();
    let (url, tarball, integrity) = fixture(&registry);
    let no_retries = FetcherOptions {
        retries: 0,
        ..fast_options()
    };
    registry.fail_next(&url, Fault::Reset);
    registry.fail_next(&url, Fault::Reset);
    let bytes = fetcher(no_retries.clone())
        .download(&request(&url, Some(&integrity)))
        .await
        .unwrap();
    assert_eq!(bytes, tarball);
    assert_eq!(registry.tarball_requests("pq-plain", "1.0.0"), 3);

    registry.reset_requests();
    for _ in 0..3 {
        registry.fail_next(&url, Fault::Reset);
    }
    let err = fetcher(no_retries.clone())
        .download(&request(&url, Some(&integrity)))
        .await
        .unwrap_err();
    assert_eq!(code(&err), "ERR_PNPM_TARBALL_FETCH_TARBALL");
    assert_eq!(registry.tarball_requests("pq-plain", "1.0.0"), 3);

    registry.reset_requests();
    registry.clear_faults();
    registry.fail_next(&url, Fault::Truncate);
    fetcher(no_retries)
        .download(&request(&url, Some(&integrity)))
        .await
        .unwrap_err();
    assert_eq!(registry.tarball_requests("pq-plain", "1.0.0"), 1);
}

#[tokio::test]
async fn connection_refused_is_a_fetch_error() {
    let url = {
        let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        format!("http://{}/x/-/x-1.0.0.tgz", listener.local_addr().unwrap())
    };
    let opts = FetcherOptions {
        retries: 1,
        ..fast_options()
    };
    let err = fetcher(opts)
        .download(&request(&url, None))
        .await
        .unwrap_err();
    assert_eq!(code(&err), "ERR_PNPM_TARBALL_FETCH_TARBALL");
}

#[tokio::test]
async fn invalid_integrity_is_refused_before_any_request() {
    let registry = support::start_registry();
    let (url, _, _) = fixture(&registry);
    let err = fetcher(fast_options())
        .download(&request(&url, Some("not an sri")))
        .await
        .unwrap_err();
    assert_eq!(code(&err), "ERR_PACQUET_TARBALL_BAD_INTEGRITY");
    assert_eq!(registry.tarball_requests("pq-plain", "1.0.0"), 0);
}

#[tokio::test]
async fn many_downloads_share_the_concurrency_limit() {
    let registry = support::start_registry();
    let (url, tarball, integrity) = fixture(&registry);
    let fetcher = std::sync::Arc::new(fetcher(FetcherOptions {
        network_concurrency: 2,
        ..fast_options()
    }));
    let tasks: Vec<_> = (0..10)
        .map(|_| {
            let (fetcher, url, integrity) = (fetcher.clone(), url.clone(), integrity.clone());
            tokio::spawn(async move {
                fetcher
                    .download(&request(&url, Some(&integrity)))
                    .await
                    .unwrap()
            })
        })
        .collect();
    for task in tasks {
        assert_eq!(task.await.unwrap(), tarball);
    }
    assert_eq!(registry.tarball_requests("pq-plain", "1.0.0"), 10);
}

/// A password in the URL's user info is masked in errors (and warnings).
#[tokio::test]
async fn a_password_in_the_url_never_shows() {
    let registry = support::start_registry();
    let (url, _, integrity) = fixture(&registry);
    let with_password = url.replacen("http://", "http://user:SECRET-PASS@", 1);
    for _ in 0..3 {
        registry.fail_next(&url, Fault::Status(500));
    }
    let err = fetcher(fast_options())
        .download(&request(&with_password, Some(&integrity)))
        .await
        .unwrap_err();
    let shown = format!("{err} {err:?}");
    assert!(!shown.contains("SECRET"), "{shown}");
    assert!(shown.contains("user:***@"), "{shown}");
}

/// A setting the HTTP client refuses fails `ready` (and every request)
/// with `ERR_PACQUET_HTTP_CLIENT`; making the fetcher asks nothing of it.
#[tokio::test]
async fn a_refused_client_setting_fails_ready_and_requests() {
    let mut opts = fast_options();
    opts.network.client_identity = Some(("not a certificate".into(), "not a key".into()));
    let fetcher = fetcher(opts);
    let refused = fetcher.ready().expect_err("a garbage identity is refused");
    assert!(
        matches!(refused, TarballError::Client { .. }),
        "{refused:?}"
    );
    assert_eq!(code(&refused), "ERR_PACQUET_HTTP_CLIENT");
    let registry = support::start_registry();
    let (url, _, integrity) = fixture(&registry);
    let failed = fetcher
        .download(&request(&url, Some(&integrity)))
        .await
        .expect_err("no client, no request");
    assert_eq!(code(&failed), "ERR_PACQUET_HTTP_CLIENT");
    assert_eq!(registry.tarball_requests("pq-plain", "1.0.0"), 0);
}
