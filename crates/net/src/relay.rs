//! A UDP relay on this machine between clients and a server that makes the link
//! between them worse: each datagram, either way, is lost with a given chance or
//! held for a delay with jitter (so datagrams may pass one another, as on a real
//! path). What `terravox bench --net` measures a lossy link with.
//!
//! Each client is given a socket of its own towards the server, bound on the
//! client's own address, so the server still tells the clients apart by address
//! and limits each as it would without the relay.

use std::collections::{BinaryHeap, HashMap};
use std::io;
use std::net::{SocketAddr, UdpSocket};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Condvar, Mutex};
use std::time::{Duration, Instant};

/// How a relay treats every datagram, either way.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Link {
    /// The delay each datagram is held, on average.
    pub delay: Duration,
    /// The most each delay is off the average, either way (uniformly).
    pub jitter: Duration,
    /// The share of datagrams lost, 0 to 1.
    pub loss: f64,
}

/// How often a blocked read looks whether the relay was stopped.
const POLL: Duration = Duration::from_millis(50);

/// The largest datagram passed on.
const MAX_DATAGRAM: usize = 2048;

/// A datagram held until it is due.
struct Held {
    due: Instant,
    /// Its place in the order they came (the tie-break between equal dues).
    order: u64,
    socket: Arc<UdpSocket>,
    to: SocketAddr,
    bytes: Vec<u8>,
}

impl PartialEq for Held {
    fn eq(&self, other: &Self) -> bool {
        (self.due, self.order) == (other.due, other.order)
    }
}
impl Eq for Held {}
impl PartialOrd for Held {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}
impl Ord for Held {
    /// The earliest due first (`BinaryHeap` pops the greatest).
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        (other.due, other.order).cmp(&(self.due, self.order))
    }
}

/// What a datagram meets on the link: lost, or held this long. The `n`th datagram's
/// fate is a hash of `seed` and `n`, so a run is the same each time its datagrams
/// come in the same order.
pub fn fate(link: &Link, seed: u64, n: u64) -> Option<Duration> {
    let unit = |k: u64| {
        (splitmix(seed ^ splitmix(n.wrapping_mul(2).wrapping_add(k))) >> 11) as f64
            / (1u64 << 53) as f64
    };
    if unit(0) < link.loss {
        return None;
    }
    let off = (unit(1) * 2.0 - 1.0) * link.jitter.as_secs_f64();
    Some(Duration::from_secs_f64(
        (link.delay.as_secs_f64() + off).max(0.0),
    ))
}

/// SplitMix64's mixing step (Steele, Lea and Flood, 2014).
fn splitmix(x: u64) -> u64 {
    let mut z = x.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// `at` rounded up to the next whole millisecond since `epoch`: the link's clock,
/// so that the datagrams due in one millisecond go out in one wake of the sender
/// (thousands a second with a hundred clients) rather than one wake each.
fn whole_ms(at: Instant, epoch: Instant) -> Instant {
    let us = at.saturating_duration_since(epoch).as_micros() as u64;
    epoch + Duration::from_millis(us.div_ceil(1000))
}

/// What the relay's threads share.
struct Shared {
    /// The start of the link's clock ([`whole_ms`]).
    epoch: Instant,
    link: Link,
    seed: u64,
    server: SocketAddr,
    front: Arc<UdpSocket>,
    stop: AtomicBool,
    /// Datagrams held, the earliest due first, and how many came so far.
    held: Mutex<(BinaryHeap<Held>, u64)>,
    due: Condvar,
}

impl Shared {
    /// Holds `bytes` for `to`, out of `socket`, as the link decides.
    fn pass(&self, socket: &Arc<UdpSocket>, to: SocketAddr, bytes: &[u8]) {
        let mut held = self.held.lock().unwrap_or_else(|e| e.into_inner());
        let order = held.1;
        held.1 += 1;
        if let Some(delay) = fate(&self.link, self.seed, order) {
            let due = whole_ms(Instant::now() + delay, self.epoch);
            // The sender sleeps until the earliest due: woken only for an earlier one.
            let earlier = held.0.peek().is_none_or(|h| due < h.due);
            held.0.push(Held {
                due,
                order,
                socket: socket.clone(),
                to,
                bytes: bytes.to_vec(),
            });
            if earlier {
                self.due.notify_one();
            }
        }
    }

    /// Sends each held datagram when it is due, until stopped: those due taken out
    /// together, and sent with the lock let go (the readers go on holding others).
    fn send_when_due(&self) {
        let mut due_now = Vec::new();
        let mut held = self.held.lock().unwrap_or_else(|e| e.into_inner());
        while !self.stop.load(Ordering::Relaxed) {
            let now = Instant::now();
            while held.0.peek().is_some_and(|h| h.due <= now) {
                due_now.extend(held.0.pop());
            }
            if !due_now.is_empty() {
                drop(held);
                for h in due_now.drain(..) {
                    let _ = h.socket.send_to(&h.bytes, h.to);
                }
                held = self.held.lock().unwrap_or_else(|e| e.into_inner());
                continue;
            }
            let wait = held.0.peek().map_or(POLL, |h| (h.due - now).min(POLL));
            held = self
                .due
                .wait_timeout(held, wait)
                .unwrap_or_else(|e| e.into_inner())
                .0;
        }
    }

    /// Passes what the server sends out of `back` on to `client`, until stopped.
    fn relay_from_server(&self, back: &Arc<UdpSocket>, client: SocketAddr) {
        let mut buf = [0u8; MAX_DATAGRAM];
        while !self.stop.load(Ordering::Relaxed) {
            if let Ok((n, from)) = back.recv_from(&mut buf)
                && from == self.server
            {
                self.pass(&self.front, client, &buf[..n]);
            }
        }
    }

    /// Passes what clients send on to the server, each out of a socket of its own
    /// (made at its first datagram, with a thread reading it), until stopped.
    fn relay_from_clients(self: &Arc<Self>) {
        let mut backs: HashMap<SocketAddr, Arc<UdpSocket>> = HashMap::new();
        let mut buf = [0u8; MAX_DATAGRAM];
        while !self.stop.load(Ordering::Relaxed) {
            let Ok((n, client)) = self.front.recv_from(&mut buf) else {
                continue;
            };
            let back = match backs.get(&client) {
                Some(b) => b.clone(),
                None => match self.back_for(client) {
                    Ok(b) => backs.entry(client).or_insert(b).clone(),
                    Err(_) => continue,
                },
            };
            self.pass(&back, self.server, &buf[..n]);
        }
    }

    /// A socket towards the server for `client`, on the client's address.
    fn back_for(self: &Arc<Self>, client: SocketAddr) -> io::Result<Arc<UdpSocket>> {
        let back = Arc::new(UdpSocket::bind(SocketAddr::new(client.ip(), 0))?);
        back.set_read_timeout(Some(POLL))?;
        let (shared, socket) = (self.clone(), back.clone());
        std::thread::Builder::new()
            .name(format!("relay {client}"))
            .spawn(move || shared.relay_from_server(&socket, client))?;
        Ok(back)
    }
}

/// A running relay; it stops when dropped.
pub struct Relay {
    shared: Arc<Shared>,
}

impl Relay {
    /// A relay listening on `bind` (port 0: any free one) in front of `server`,
    /// treating every datagram as `link` says; `seed` decides which are lost.
    pub fn start(bind: SocketAddr, server: SocketAddr, link: Link, seed: u64) -> io::Result<Self> {
        let front = Arc::new(UdpSocket::bind(bind)?);
        front.set_read_timeout(Some(POLL))?;
        let shared = Arc::new(Shared {
            epoch: Instant::now(),
            link,
            seed,
            server,
            front,
            stop: AtomicBool::new(false),
            held: Mutex::new((BinaryHeap::new(), 0)),
            due: Condvar::new(),
        });
        let sender = shared.clone();
        std::thread::Builder::new()
            .name("relay sender".into())
            .spawn(move || sender.send_when_due())?;
        let reader = shared.clone();
        std::thread::Builder::new()
            .name("relay".into())
            .spawn(move || reader.relay_from_clients())?;
        Ok(Self { shared })
    }

    /// Where clients send.
    pub fn address(&self) -> io::Result<SocketAddr> {
        self.shared.front.local_addr()
    }
}

impl Drop for Relay {
    fn drop(&mut self) {
        self.shared.stop.store(true, Ordering::Relaxed);
        self.shared.due.notify_all();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const LOSSY: Link = Link {
        delay: Duration::from_millis(40),
        jitter: Duration::from_millis(20),
        loss: 0.03,
    };

    #[test]
    fn a_links_losses_and_delays_are_its_own_and_the_same_each_run() {
        let fates: Vec<_> = (0..100_000).map(|n| fate(&LOSSY, 7, n)).collect();
        let lost = fates.iter().filter(|f| f.is_none()).count();
        assert!((2_700..3_300).contains(&lost), "{lost} lost of 100,000");
        let ms: Vec<f64> = fates
            .iter()
            .flatten()
            .map(|d| d.as_secs_f64() * 1e3)
            .collect();
        let (least, most) = ms
            .iter()
            .fold((f64::MAX, 0.0f64), |(a, b), &m| (a.min(m), b.max(m)));
        assert!((20.0..20.1).contains(&least) && (59.9..=60.0).contains(&most));
        let mean = ms.iter().sum::<f64>() / ms.len() as f64;
        assert!((39.8..40.2).contains(&mean), "mean {mean} ms");
        assert_eq!(
            fates,
            (0..100_000).map(|n| fate(&LOSSY, 7, n)).collect::<Vec<_>>()
        );
        assert_ne!(
            fates,
            (0..100_000).map(|n| fate(&LOSSY, 8, n)).collect::<Vec<_>>()
        );
    }

    #[test]
    fn a_datagram_crosses_it_both_ways_held_for_the_delay() {
        let server = UdpSocket::bind("127.0.0.1:0").unwrap();
        let link = Link {
            delay: Duration::from_millis(30),
            jitter: Duration::ZERO,
            loss: 0.0,
        };
        let relay = Relay::start(
            "127.0.0.1:0".parse().unwrap(),
            server.local_addr().unwrap(),
            link,
            1,
        )
        .unwrap();
        let client = UdpSocket::bind("127.0.0.1:0").unwrap();
        client
            .set_read_timeout(Some(Duration::from_secs(5)))
            .unwrap();
        server
            .set_read_timeout(Some(Duration::from_secs(5)))
            .unwrap();
        let sent = Instant::now();
        client.send_to(b"up", relay.address().unwrap()).unwrap();
        let mut buf = [0u8; 16];
        let (n, from) = server.recv_from(&mut buf).unwrap();
        assert_eq!(&buf[..n], b"up");
        assert!(sent.elapsed() >= Duration::from_millis(30));
        assert_ne!(from, client.local_addr().unwrap(), "its own socket");
        assert_eq!(
            from.ip(),
            client.local_addr().unwrap().ip(),
            "on the client's address"
        );
        server.send_to(b"down", from).unwrap();
        let (n, from) = client.recv_from(&mut buf).unwrap();
        assert_eq!((&buf[..n], from), (&b"down"[..], relay.address().unwrap()));
    }
}
