//! The accept loop and per-connection request handling.

use std::sync::Arc;

use tokio::io::{AsyncWriteExt, BufReader};
use tokio::net::TcpStream;

use super::http::{self, Response};
use super::{Fault, Shared, normalize};

/// Listen backlog: installers open dozens of connections at once.
const BACKLOG: u32 = 1024;

/// Binds `127.0.0.1:<port>` with a large backlog, as a std listener so the
/// address is known before the runtime thread starts.
pub fn bind(port: u16) -> std::net::TcpListener {
    let addr = std::net::SocketAddr::from(([127, 0, 0, 1], port));
    let socket = tokio::net::TcpSocket::new_v4().expect("socket");
    socket.set_reuseaddr(true).expect("SO_REUSEADDR");
    socket
        .bind(addr)
        .unwrap_or_else(|e| panic!("bind {addr}: {e}"));
    // `listen` needs a runtime only for registering with the reactor, which
    // happens later; build a throwaway current-thread one for it.
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_io()
        .build()
        .expect("runtime");
    let listener = rt
        .block_on(async { socket.listen(BACKLOG) })
        .expect("listen");
    let std_listener = listener.into_std().expect("into std");
    std_listener.set_nonblocking(true).expect("nonblocking");
    std_listener
}

/// Runs the registry until `stop` fires (or its sender is dropped).
pub fn run(
    listener: std::net::TcpListener,
    shared: Arc<Shared>,
    stop: tokio::sync::oneshot::Receiver<()>,
) {
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .expect("registry runtime");
    rt.block_on(async move {
        let listener = tokio::net::TcpListener::from_std(listener).expect("tokio listener");
        tokio::pin!(stop);
        loop {
            tokio::select! {
                _ = &mut stop => break,
                accepted = listener.accept() => {
                    if let Ok((stream, _)) = accepted {
                        let _ = stream.set_nodelay(true);
                        tokio::spawn(serve(stream, Arc::clone(&shared)));
                    }
                }
            }
        }
    });
    rt.shutdown_background();
}

/// Serves requests on one connection until it closes or asks to.
async fn serve(stream: TcpStream, shared: Arc<Shared>) {
    let (read, mut write) = stream.into_split();
    let mut reader = BufReader::new(read);
    loop {
        let request = match http::read_request(&mut reader).await {
            Ok(Some(r)) => r,
            Ok(None) => return,
            Err(_) => {
                let resp = Response::text(400, "bad request");
                let _ = http::write_response(&mut write, &resp, false, false).await;
                return;
            }
        };
        let head_only = request.method == "HEAD";
        if request.method != "GET" && !head_only {
            let resp = Response::text(405, "method not allowed");
            if http::write_response(&mut write, &resp, request.keep_alive, false)
                .await
                .is_err()
                || !request.keep_alive
            {
                return;
            }
            continue;
        }
        let path = normalize(&request.target);
        let fault = shared.record(&path, request.authorization.as_deref());
        let mut resp = shared.respond(&path);
        match fault {
            None => resp = shared.revalidate(resp, request.if_none_match.as_deref()),
            Some(Fault::Status(code)) => resp = Response::text(code, "injected fault"),
            Some(Fault::Delay(d)) => tokio::time::sleep(d).await,
            Some(Fault::WrongBody) => match resp.body.last_mut() {
                Some(last) => *last ^= 0xff,
                None => resp.body.push(b'x'),
            },
            Some(Fault::Reset) => return,
            Some(Fault::Stall) => std::future::pending::<()>().await,
            Some(Fault::StallMidBody) => {
                let half = resp.body.len() / 2;
                if http::write_head(&mut write, &resp, false).await.is_ok() {
                    let _ = write.write_all(&resp.body[..half]).await;
                    let _ = write.flush().await;
                }
                std::future::pending::<()>().await
            }
            Some(Fault::Truncate) => {
                let half = resp.body.len() / 2;
                if http::write_head(&mut write, &resp, false).await.is_ok() {
                    let _ = write.write_all(&resp.body[..half]).await;
                    let _ = write.flush().await;
                }
                return;
            }
        }
        let keep_alive = request.keep_alive;
        if http::write_response(&mut write, &resp, keep_alive, head_only)
            .await
            .is_err()
            || !keep_alive
        {
            let _ = write.shutdown().await;
            return;
        }
    }
}
