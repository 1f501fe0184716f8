//! The server's metrics, opt-in (`--metrics ADDR`): Prometheus's text format at
//! `http://ADDR/metrics`, served by a thread of its own (tiny_http), so a scrape
//! never waits on a tick nor a tick on a scrape. The tick sets the figures once a
//! second ([`Metrics::set`]); the registry's values are atomics the serving thread
//! reads.
//!
//! ```text
//! terravox_tick_seconds{quantile="0.5"|"0.99"|"1"}  the last 30 s of ticks
//! terravox_players                                 playing now
//! terravox_received_bytes_total, _sent_bytes_total UDP payload
//! terravox_edits_total                             edits made (durable)
//! terravox_water_due, terravox_water_waiting       blocks of water due, waiting
//! terravox_journal_bytes                           the journal since the last save
//! ```

use std::net::SocketAddr;
use std::sync::Arc;

use prometheus::{Encoder, GaugeVec, IntCounter, IntGauge, Opts, Registry, TextEncoder};

/// The figures a tick sets.
#[derive(Clone, Debug, Default, PartialEq)]
pub(crate) struct Figures {
    /// Median, 99th percentile and longest tick of the window, in seconds.
    pub(crate) ticks: [f64; 3],
    pub(crate) players: usize,
    pub(crate) received: u64,
    pub(crate) sent: u64,
    pub(crate) edits: u64,
    pub(crate) water_due: usize,
    pub(crate) water_waiting: usize,
    pub(crate) journal_bytes: u64,
}

/// The metrics and the thread serving them.
pub(crate) struct Metrics {
    registry: Registry,
    ticks: GaugeVec,
    players: IntGauge,
    received: IntCounter,
    sent: IntCounter,
    edits: IntCounter,
    water_due: IntGauge,
    water_waiting: IntGauge,
    journal: IntGauge,
    /// Where it listens.
    pub(crate) addr: SocketAddr,
}

/// The median, 99th percentile and longest of `ticks` (the console's figures and
/// the metrics' alike).
pub(crate) fn quantiles<T: Copy + Default + PartialOrd>(mut ticks: Vec<T>) -> [T; 3] {
    ticks.sort_by(|a, b| a.partial_cmp(b).unwrap_or(std::cmp::Ordering::Equal));
    let at = |q: f64| {
        ticks
            .get(((ticks.len().max(1) - 1) as f64 * q).round() as usize)
            .copied()
            .unwrap_or_default()
    };
    [at(0.5), at(0.99), at(1.0)]
}

impl Metrics {
    /// Serves the metrics on `addr` (port 0: any free one).
    pub(crate) fn serve(addr: SocketAddr) -> Result<Self, String> {
        let registry = Registry::new();
        let bad = |e: prometheus::Error| format!("metrics: {e}");
        let ticks = GaugeVec::new(
            Opts::new(
                "terravox_tick_seconds",
                "server tick time over the last 30 s",
            ),
            &["quantile"],
        )
        .map_err(bad)?;
        let int_gauge = |name: &str, help: &str| IntGauge::new(name, help).map_err(bad);
        let counter = |name: &str, help: &str| IntCounter::new(name, help).map_err(bad);
        let m = Self {
            ticks,
            players: int_gauge("terravox_players", "players playing")?,
            received: counter(
                "terravox_received_bytes_total",
                "UDP payload bytes received",
            )?,
            sent: counter("terravox_sent_bytes_total", "UDP payload bytes sent")?,
            edits: counter("terravox_edits_total", "edits made and durable")?,
            water_due: int_gauge("terravox_water_due", "blocks of water due to tick")?,
            water_waiting: int_gauge(
                "terravox_water_waiting",
                "blocks of water set aside until their chunk is near a player",
            )?,
            journal: int_gauge("terravox_journal_bytes", "bytes of journal since the save")?,
            registry,
            addr,
        };
        m.registry
            .register(Box::new(m.ticks.clone()))
            .map_err(bad)?;
        for g in [&m.players, &m.water_due, &m.water_waiting, &m.journal] {
            m.registry.register(Box::new(g.clone())).map_err(bad)?;
        }
        for c in [&m.received, &m.sent, &m.edits] {
            m.registry.register(Box::new(c.clone())).map_err(bad)?;
        }
        let server = tiny_http::Server::http(addr)
            .map_err(|e| format!("cannot serve metrics on {addr}: {e}"))?;
        let addr = server
            .server_addr()
            .to_ip()
            .ok_or_else(|| format!("metrics: {addr} is no IP address"))?;
        let registry = m.registry.clone();
        let server = Arc::new(server);
        std::thread::Builder::new()
            .name("terravox-metrics".to_owned())
            .spawn(move || {
                for request in server.incoming_requests() {
                    let response = answer(&registry, request.url());
                    let _ = request.respond(response);
                }
            })
            .map_err(|e| format!("metrics: {e}"))?;
        Ok(Self { addr, ..m })
    }

    /// Sets the figures.
    pub(crate) fn set(&self, f: &Figures) {
        for (q, v) in ["0.5", "0.99", "1"].iter().zip(f.ticks) {
            if let Ok(g) = self.ticks.get_metric_with_label_values(&[q]) {
                g.set(v);
            }
        }
        self.players.set(f.players as i64);
        let grow = |c: &IntCounter, to: u64| c.inc_by(to.saturating_sub(c.get()));
        grow(&self.received, f.received);
        grow(&self.sent, f.sent);
        grow(&self.edits, f.edits);
        self.water_due.set(f.water_due as i64);
        self.water_waiting.set(f.water_waiting as i64);
        self.journal.set(f.journal_bytes as i64);
    }
}

/// The answer to a request for `url`: the metrics at `/metrics`, else 404.
fn answer(registry: &Registry, url: &str) -> tiny_http::Response<std::io::Cursor<Vec<u8>>> {
    if url != "/metrics" {
        return tiny_http::Response::from_string("not found: the metrics are at /metrics")
            .with_status_code(404);
    }
    let encoder = TextEncoder::new();
    let mut body = Vec::new();
    if encoder.encode(&registry.gather(), &mut body).is_err() {
        return tiny_http::Response::from_string("cannot encode the metrics").with_status_code(500);
    }
    let kind = tiny_http::Header::from_bytes("Content-Type", encoder.format_type())
        .expect("a valid header");
    tiny_http::Response::from_data(body).with_header(kind)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::{Read, Write};

    fn get(addr: SocketAddr, path: &str) -> String {
        let mut s = std::net::TcpStream::connect(addr).unwrap();
        write!(s, "GET {path} HTTP/1.0\r\nHost: x\r\n\r\n").unwrap();
        let mut out = String::new();
        s.read_to_string(&mut out).unwrap();
        out
    }

    #[test]
    fn the_figures_are_served_in_prometheus_text() {
        let m = Metrics::serve("127.0.0.1:0".parse().unwrap()).unwrap();
        m.set(&Figures {
            ticks: quantiles(vec![0.003, 0.001, 0.002]),
            players: 3,
            received: 1000,
            sent: 5000,
            edits: 7,
            water_due: 12,
            water_waiting: 40,
            journal_bytes: 4096,
        });
        m.set(&Figures {
            received: 1500,
            ..Figures::default()
        });
        let text = get(m.addr, "/metrics");
        for line in [
            "terravox_tick_seconds{quantile=\"0.5\"} 0",
            "terravox_players 0",
            "terravox_received_bytes_total 1500",
            "terravox_sent_bytes_total 5000",
            "terravox_edits_total 7",
        ] {
            assert!(text.contains(line), "{line} in\n{text}");
        }
        assert!(
            get(m.addr, "/").starts_with("HTTP/1.0 404"),
            "{}",
            get(m.addr, "/")
        );
        assert_eq!(quantiles(vec![0.003, 0.001, 0.002]), [0.002, 0.003, 0.003]);
    }
}
