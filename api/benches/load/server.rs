//! The `herald` child process the load test and the soak serve from: started on a free port
//! with an admin token, waited for (its port, then `/readyz`), stopped gracefully or killed.

use std::{
    net::TcpListener,
    path::Path,
    process::{Child, Command, Stdio},
    time::{Duration, Instant},
};

/// A `herald serve` child on a port of its own.
pub struct Server {
    pub child: Child,
    pub port: u16,
    /// The binary it runs: this build's, or `HERALD_LOAD_BIN`'s to compare another build.
    #[allow(dead_code)] // the soak prints it; the load test does not
    pub binary: String,
}

impl Server {
    /// Start on `dir` with `args` after the defaults, and wait until it is ready.
    pub fn start(dir: &Path, admin: &str, args: &[String]) -> Self {
        let server = Self::spawn(dir, admin, args);
        let started = Instant::now();
        server.wait_for_port(started);
        server.wait_until_ready(started);
        server
    }

    /// Start on `dir` without waiting (stderr is this process's; the server logs warnings only).
    pub fn spawn(dir: &Path, admin: &str, args: &[String]) -> Self {
        let port =
            TcpListener::bind("127.0.0.1:0").and_then(|l| l.local_addr()).map(|a| a.port()).expect("a free port");
        let binary = std::env::var("HERALD_LOAD_BIN").unwrap_or_else(|_| env!("CARGO_BIN_EXE_herald").to_string());
        let child = Command::new(&binary)
            .args(["serve", "--port", &port.to_string(), "--data-dir"])
            .arg(dir)
            .args(args)
            .env("HERALD_ADMIN_TOKEN", admin)
            .env("RUST_LOG", "warn")
            .stdout(Stdio::null())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("herald starts");
        Self { child, port, binary }
    }

    /// How long after `since` the port accepted a connection.
    pub fn wait_for_port(&self, since: Instant) -> Duration {
        loop {
            if std::net::TcpStream::connect(("127.0.0.1", self.port)).is_ok() {
                return since.elapsed();
            }
            assert!(since.elapsed() < Duration::from_secs(60), "the port never opened");
            std::thread::sleep(Duration::from_millis(1));
        }
    }

    /// How long after `since` `/readyz` answered 200 (read models restored and caught up).
    pub fn wait_until_ready(&self, since: Instant) -> Duration {
        let client = reqwest::blocking::Client::new();
        loop {
            let ready = client
                .get(format!("http://127.0.0.1:{}/readyz", self.port))
                .send()
                .is_ok_and(|response| response.status().is_success());
            if ready {
                return since.elapsed();
            }
            assert!(since.elapsed() < Duration::from_secs(300), "never ready");
            std::thread::sleep(Duration::from_millis(5));
        }
    }

    /// SIGTERM, as a service manager stops it, and wait for it to exit (it saves its read
    /// models first).
    pub fn stop_gracefully(mut self) {
        let _ = Command::new("kill").args(["-TERM", &self.child.id().to_string()]).status();
        let _ = self.child.wait();
    }

    /// Its resident memory, in MiB.
    pub fn rss_mib(&self) -> u64 {
        rss_mib(self.child.id())
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// VmRSS of process `pid`, in MiB.
pub fn rss_mib(pid: u32) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
    let kib: u64 = status
        .lines()
        .find(|line| line.starts_with("VmRSS:"))
        .and_then(|line| line.split_whitespace().nth(1))
        .and_then(|kib| kib.parse().ok())
        .unwrap_or(0);
    kib / 1024
}
