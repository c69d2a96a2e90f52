//! `web/pkg/example.html` from a plain static file server (Python's
//! `http.server` over `web/pkg/`, no faan server behind it): the page
//! scores the package README's hand with faan.js and the module.

use super::page::{free_port, Page};
use std::process::{Command, Stdio};

/// Stops the file server when the flow ends, however it ends.
struct FileServer(std::process::Child);

impl Drop for FileServer {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

pub async fn example_flow(p: Page) {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("web/pkg");
    assert!(
        root.join("faan.wasm").is_file(),
        "web/pkg/faan.wasm is missing: run web/pkg/build.sh"
    );
    let port = free_port();
    let _server = FileServer(
        Command::new("python3")
            .args([
                "-m",
                "http.server",
                &port.to_string(),
                "--bind",
                "127.0.0.1",
            ])
            .current_dir(&root)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("python3 runs"),
    );
    let url = format!("http://127.0.0.1:{port}/example.html");
    for _ in 0..100 {
        if std::net::TcpStream::connect(("127.0.0.1", port)).is_ok() {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    p.goto(&url).await;
    // Mixed one suit 3, dragon pung 1, self-drawn 1: 5 faan; HKMA's base
    // for 5 faan is 24, doubled on a self-draw: 48 from each other seat.
    let total = p
        .wait_text("#total", "the total", |t| t.trim() != "…")
        .await;
    assert_eq!(total.trim(), "5", "case: README hand, total faan");
    assert_eq!(
        p.text("#payments").await.unwrap(),
        "east -48, south +144, west -48, north -48",
        "case: README hand, payments"
    );
    assert_eq!(p.text("#error").await.unwrap(), "", "case: no error");
    let lines = p.text("#lines").await.unwrap();
    for line in [
        "Mixed one suit (混一色): 3",
        "Dragon pung (三元牌): 1",
        "Self-drawn win (自摸): 1",
    ] {
        assert!(lines.contains(line), "case: line {line:?} in {lines:?}");
    }
}
