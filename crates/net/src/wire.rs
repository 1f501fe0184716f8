//! The transport's seam: where datagrams go in and out. A server and a connected
//! client read and write through a [`Wire`]: a UDP socket in the product
//! ([`Udp`]), an in-process hub in the tests (`Hub`, under `cfg(test)`), so the
//! server's rules run tick by tick against real clients' packets with no socket and
//! no wall clock.

use std::collections::{HashMap, VecDeque};
use std::io;
use std::net::{IpAddr, SocketAddr, UdpSocket};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::Duration;

/// Datagrams in and out, never blocking.
pub(crate) trait Wire: Send {
    /// Sends `payload` to `to`; a datagram may be lost, so errors are not reported.
    fn send(&mut self, payload: &[u8], to: SocketAddr);
    /// The next datagram that arrived, into `buf`: its length and sender, or `None`
    /// when nothing waits.
    fn receive(&mut self, buf: &mut [u8]) -> Option<(usize, SocketAddr)>;
    /// The address it is reached at.
    fn local_addr(&self) -> io::Result<SocketAddr>;
}

/// Datagrams queued at most, from all addresses (a server reads 2,048 a tick).
const QUEUED: usize = 16_384;
/// Datagrams queued at most from one address: a flood from one address fills only
/// its own share.
const QUEUED_FROM_ONE: usize = 1_024;
/// How long the reader blocks on the socket before it looks whether to stop.
const READ_TIMEOUT: Duration = Duration::from_millis(100);

/// What a UDP socket received and the wire has not yet given out: in order, each
/// address within its share of the queue (what does not fit is dropped, as the
/// kernel drops what does not fit its buffer, but one flooding address no longer
/// crowds everyone else out of it).
#[derive(Default)]
struct Inbox {
    queue: VecDeque<(Vec<u8>, SocketAddr)>,
    from: HashMap<IpAddr, usize>,
}

impl Inbox {
    /// Keeps `payload` from `from` if the queue and `from`'s share have room.
    fn push(&mut self, payload: &[u8], from: SocketAddr) {
        let held = self.from.entry(from.ip()).or_default();
        if *held >= QUEUED_FROM_ONE || self.queue.len() >= QUEUED {
            return;
        }
        *held += 1;
        self.queue.push_back((payload.to_vec(), from));
    }

    /// The oldest datagram kept.
    fn pop(&mut self) -> Option<(Vec<u8>, SocketAddr)> {
        let (payload, from) = self.queue.pop_front()?;
        if let Some(held) = self.from.get_mut(&from.ip()) {
            *held -= 1;
            if *held == 0 {
                self.from.remove(&from.ip());
            }
        }
        Some((payload, from))
    }
}

/// A UDP socket. A client's is read when it asks ([`Udp::new`]: it asks every few
/// milliseconds); a server's by a thread of its own as datagrams arrive, into an
/// [`Inbox`] ([`Udp::drained`]): a server sleeping between ticks would otherwise
/// leave them to the kernel's buffer, a few hundred datagrams, and a flood between
/// two ticks would drop everyone's. A server's datagrams go out from a thread of
/// their own too ([`Writer`]): a hundred clients were sent about 6,000 a second,
/// and each send on the tick's thread was the tick's time.
pub(crate) struct Udp {
    socket: UdpSocket,
    reader: Option<Reader>,
    writer: Option<Writer>,
}

/// Datagrams waiting for the writer at most (a second of a hundred clients'); one
/// past it is lost, as the kernel loses one its buffer cannot hold.
const OUTGOING: usize = 8_192;

/// The thread that sends a drained socket's datagrams, in order.
struct Writer {
    /// `None` once dropped: the thread sends what is queued, then ends.
    queue: Option<std::sync::mpsc::SyncSender<(Vec<u8>, SocketAddr)>>,
    thread: Option<JoinHandle<()>>,
}

impl Writer {
    fn start(socket: UdpSocket) -> io::Result<Self> {
        let (queue, datagrams) = std::sync::mpsc::sync_channel::<(Vec<u8>, SocketAddr)>(OUTGOING);
        let thread = std::thread::Builder::new()
            .name("udp-writer".into())
            .spawn(move || {
                for (payload, to) in datagrams {
                    let _ = socket.send_to(&payload, to);
                }
            })?;
        Ok(Self {
            queue: Some(queue),
            thread: Some(thread),
        })
    }
}

impl Drop for Writer {
    /// Sends what is queued (a server's last words to its clients) before it ends.
    fn drop(&mut self) {
        self.queue = None;
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

/// The thread that reads a drained socket, and what it read.
struct Reader {
    inbox: Arc<Mutex<Inbox>>,
    stop: Arc<AtomicBool>,
    thread: Option<JoinHandle<()>>,
}

impl Udp {
    /// A socket read when the wire is asked (made non-blocking).
    pub(crate) fn new(socket: UdpSocket) -> io::Result<Self> {
        socket.set_nonblocking(true)?;
        Ok(Self {
            socket,
            reader: None,
            writer: None,
        })
    }

    /// A socket a thread of its own reads as datagrams arrive, and another writes.
    pub(crate) fn drained(socket: UdpSocket) -> io::Result<Self> {
        // One socket under three handles: blocking, with a timeout, is the reader's.
        let writer = Writer::start(socket.try_clone()?)?;
        let read = socket.try_clone()?;
        read.set_nonblocking(false)?;
        read.set_read_timeout(Some(READ_TIMEOUT))?;
        let inbox = Arc::new(Mutex::new(Inbox::default()));
        let stop = Arc::new(AtomicBool::new(false));
        let thread = {
            let (inbox, stop) = (inbox.clone(), stop.clone());
            std::thread::Builder::new()
                .name("udp-reader".into())
                .spawn(move || read_until_stopped(&read, &inbox, &stop))?
        };
        Ok(Self {
            socket,
            reader: Some(Reader {
                inbox,
                stop,
                thread: Some(thread),
            }),
            writer: Some(writer),
        })
    }
}

/// Reads `socket` into `inbox` until `stop` is set.
fn read_until_stopped(socket: &UdpSocket, inbox: &Mutex<Inbox>, stop: &AtomicBool) {
    // The largest datagram UDP carries: a longer one would be cut, not refused.
    let mut buf = vec![0u8; 65_536];
    while !stop.load(Ordering::Relaxed) {
        // An error is a timeout, or an ICMP error for a packet sent earlier:
        // nothing to read in either.
        if let Ok((len, from)) = socket.recv_from(&mut buf) {
            lock(inbox).push(&buf[..len], from);
        }
    }
}

fn lock(inbox: &Mutex<Inbox>) -> std::sync::MutexGuard<'_, Inbox> {
    inbox.lock().unwrap_or_else(|e| e.into_inner())
}

impl Drop for Reader {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

impl Wire for Udp {
    fn send(&mut self, payload: &[u8], to: SocketAddr) {
        match self.writer.as_ref().and_then(|w| w.queue.as_ref()) {
            // Full: lost, as a datagram may be.
            Some(queue) => {
                let _ = queue.try_send((payload.to_vec(), to));
            }
            None => {
                let _ = self.socket.send_to(payload, to);
            }
        }
    }

    fn receive(&mut self, buf: &mut [u8]) -> Option<(usize, SocketAddr)> {
        if let Some(reader) = &self.reader {
            let (payload, from) = lock(&reader.inbox).pop()?;
            let n = payload.len().min(buf.len());
            buf[..n].copy_from_slice(&payload[..n]);
            return Some((n, from));
        }
        loop {
            match self.socket.recv_from(buf) {
                Ok(got) => return Some(got),
                // An ICMP error for a packet sent earlier: nothing to read in it.
                Err(e)
                    if !matches!(
                        e.kind(),
                        io::ErrorKind::WouldBlock | io::ErrorKind::Interrupted
                    ) => {}
                Err(_) => return None,
            }
        }
    }

    fn local_addr(&self) -> io::Result<SocketAddr> {
        self.socket.local_addr()
    }
}

#[cfg(test)]
mod inbox_tests {
    use super::*;

    fn at(ip: [u8; 4], port: u16) -> SocketAddr {
        SocketAddr::from((ip, port))
    }

    #[test]
    fn a_flood_from_one_address_fills_only_its_share_and_others_still_get_in() {
        let mut inbox = Inbox::default();
        let flood = at([127, 0, 0, 2], 9);
        for i in 0..QUEUED_FROM_ONE + 500 {
            inbox.push(&[i as u8], flood);
        }
        let player = at([127, 0, 0, 1], 7);
        inbox.push(b"hello", player);
        let mut got = Vec::new();
        while let Some(d) = inbox.pop() {
            got.push(d);
        }
        assert_eq!(got.len(), QUEUED_FROM_ONE + 1);
        assert_eq!(got.last(), Some(&(b"hello".to_vec(), player)));
        // Its share is free again once read.
        inbox.push(&[1], flood);
        assert_eq!(inbox.pop(), Some((vec![1], flood)));
        assert!(inbox.from.is_empty());
    }

    #[test]
    fn the_queue_holds_at_most_its_length_over_all_addresses() {
        let mut inbox = Inbox::default();
        for n in 0..(QUEUED / QUEUED_FROM_ONE + 2) {
            let from = at([10, 0, (n / 256) as u8, n as u8], 1);
            for _ in 0..QUEUED_FROM_ONE {
                inbox.push(&[0], from);
            }
        }
        assert_eq!(inbox.queue.len(), QUEUED);
    }

    #[test]
    fn a_datagram_sent_to_the_socket_is_read_in_order_without_the_server_asking() {
        let server = UdpSocket::bind("127.0.0.1:0").unwrap();
        let to = server.local_addr().unwrap();
        let mut wire = Udp::drained(server).unwrap();
        let client = UdpSocket::bind("127.0.0.1:0").unwrap();
        // Seven times what the kernel's buffer holds of them (about 280), at 10,000
        // a second, while nobody calls `receive`: without the reader most are lost.
        for i in 0..2_000u32 {
            client.send_to(&i.to_le_bytes(), to).unwrap();
            if i % 50 == 49 {
                std::thread::sleep(Duration::from_millis(5));
            }
        }
        std::thread::sleep(Duration::from_millis(200));
        let mut buf = [0u8; 16];
        let mut got = Vec::new();
        while let Some((len, from)) = wire.receive(&mut buf) {
            assert_eq!((len, from), (4, client.local_addr().unwrap()));
            got.push(u32::from_le_bytes(buf[..4].try_into().unwrap()));
        }
        assert!(got.is_sorted_by(|a, b| a < b), "out of order");
        // A reader starved of the processor for a while may lose some; the kernel
        // alone keeps a seventh.
        assert!(got.len() >= 1_000, "{} of 2000 read", got.len());
    }
}

#[cfg(test)]
mod writer_tests {
    use super::*;

    #[test]
    fn a_drained_socket_sends_in_order_and_what_is_queued_when_it_is_dropped() {
        let client = UdpSocket::bind("127.0.0.1:0").unwrap();
        client
            .set_read_timeout(Some(Duration::from_secs(5)))
            .unwrap();
        let to = client.local_addr().unwrap();
        let mut wire = Udp::drained(UdpSocket::bind("127.0.0.1:0").unwrap()).unwrap();
        let from = wire.local_addr().unwrap();
        for i in 0..200u32 {
            wire.send(&i.to_le_bytes(), to);
        }
        drop(wire);
        let mut buf = [0u8; 16];
        for i in 0..200u32 {
            let (n, at) = client.recv_from(&mut buf).unwrap();
            assert_eq!((&buf[..n], at), (&i.to_le_bytes()[..], from));
        }
    }
}

#[cfg(test)]
pub(crate) use hub::Hub;

#[cfg(test)]
mod hub {
    use std::collections::{HashMap, HashSet, VecDeque};
    use std::io;
    use std::net::SocketAddr;
    use std::sync::{Arc, Mutex};

    use super::Wire;

    /// Datagrams waiting at each address, and the addresses cut off.
    #[derive(Default)]
    struct Queues {
        waiting: HashMap<SocketAddr, VecDeque<(Vec<u8>, SocketAddr)>>,
        cut: HashSet<SocketAddr>,
    }

    /// A network in one process: a datagram sent to an address waits there until
    /// that address's wire reads it, in order; an address cut off loses what it
    /// sends and what is sent to it.
    #[derive(Clone, Default)]
    pub(crate) struct Hub(Arc<Mutex<Queues>>);

    /// One address on a [`Hub`].
    pub(crate) struct HubWire {
        hub: Hub,
        at: SocketAddr,
    }

    impl Hub {
        /// A wire at `at`.
        pub(crate) fn wire(&self, at: SocketAddr) -> HubWire {
            self.queues().waiting.entry(at).or_default();
            HubWire {
                hub: self.clone(),
                at,
            }
        }

        /// Cuts `at` off (`true`) or joins it again.
        pub(crate) fn cut(&self, at: SocketAddr, cut: bool) {
            let mut q = self.queues();
            if cut {
                q.cut.insert(at);
            } else {
                q.cut.remove(&at);
            }
        }

        /// Datagrams waiting to be read at `at`.
        pub(crate) fn waiting(&self, at: SocketAddr) -> usize {
            self.queues().waiting.get(&at).map_or(0, VecDeque::len)
        }

        /// Sends `payload` to `to` as if from `from` (no wire needed: a flood).
        pub(crate) fn send(&self, payload: &[u8], from: SocketAddr, to: SocketAddr) {
            let mut q = self.queues();
            if q.cut.contains(&from) || q.cut.contains(&to) {
                return;
            }
            if let Some(w) = q.waiting.get_mut(&to) {
                w.push_back((payload.to_vec(), from));
            }
        }

        /// Takes what waits at `at` (what a flood's sender is answered).
        pub(crate) fn take(&self, at: SocketAddr) -> Vec<(Vec<u8>, SocketAddr)> {
            self.queues()
                .waiting
                .get_mut(&at)
                .map(|w| w.drain(..).collect())
                .unwrap_or_default()
        }

        fn queues(&self) -> std::sync::MutexGuard<'_, Queues> {
            self.0.lock().unwrap_or_else(|e| e.into_inner())
        }
    }

    impl Wire for HubWire {
        fn send(&mut self, payload: &[u8], to: SocketAddr) {
            self.hub.send(payload, self.at, to);
        }

        fn receive(&mut self, buf: &mut [u8]) -> Option<(usize, SocketAddr)> {
            let (bytes, from) = self.hub.queues().waiting.get_mut(&self.at)?.pop_front()?;
            let n = bytes.len().min(buf.len());
            buf[..n].copy_from_slice(&bytes[..n]);
            Some((n, from))
        }

        fn local_addr(&self) -> io::Result<SocketAddr> {
            Ok(self.at)
        }
    }
}
