// SPDX-License-Identifier: GPL-2.0
/*
 * hub - a tiny Ethernet hub for the softrdma QEMU lab.
 *
 * Listens on a unix stream socket.  Every QEMU guest connects with
 *   -netdev stream,id=n0,server=off,addr.type=unix,addr.path=SOCK
 * and speaks QEMU's socket-netdev framing on it: a 4-byte big-endian
 * length followed by that many bytes of Ethernet frame.  Each frame read
 * from one port is forwarded to every other connected port (a hub, so any
 * number of guests share one segment) and, with --pcap FILE, appended to a
 * pcap file (LINKTYPE_ETHERNET).
 *
 * Usage: hub --socket PATH [--pcap FILE] [--parent PID]
 *
 * The socket appears at PATH only once the hub is listening (it is bound
 * under a temporary name and renamed), so a caller can wait for PATH.
 * Exits on SIGTERM/SIGINT/SIGHUP, or when its parent (or --parent PID)
 * dies.  All I/O is non-blocking and poll()-driven; a port whose output
 * queue grows beyond OUTQ_MAX drops frames rather than stalling the hub.
 *
 * What the segment itself did to frames is always logged (stderr), so
 * that a stalled test can tell a lost frame from a lost protocol: a port
 * whose guest has read nothing of its queued frames for STALL_SECS (its
 * NIC takes no frames), the first drop of each such episode, and at exit
 * every port's frame counts.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdarg.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#define MAX_PORTS	64
#define FRAME_MAX	(256 * 1024)	/* QEMU sends at most ~69 KiB */
#define INBUF_SIZE	(FRAME_MAX + 4)
#define OUTQ_MAX	(4 * 1024 * 1024)
#define STALL_SECS	5

struct port {
	int fd;
	unsigned int id;
	unsigned char *in;	/* partial input: header + frame */
	size_t in_len;
	unsigned char *out;	/* queued output bytes */
	size_t out_len, out_cap, out_off;
	unsigned long rx_frames, tx_frames, drops;
	size_t out_peak;	/* most bytes ever queued */
	time_t stuck_since;	/* output pending, none sent since; or 0 */
	int stall_logged;	/* this episode was reported */
	unsigned long stall_drops;	/* drops at the episode's start */
};

static struct port ports[MAX_PORTS];
static int nports;
static unsigned int next_port_id;
static volatile sig_atomic_t stop;
static FILE *pcap;
static int verbose;

static void on_signal(int sig)
{
	(void)sig;
	stop = 1;
}

static void vlog(const char *fmt, va_list ap)
{
	struct timespec ts;
	char hms[16];
	struct tm tm;

	clock_gettime(CLOCK_REALTIME, &ts);
	localtime_r(&ts.tv_sec, &tm);
	strftime(hms, sizeof(hms), "%H:%M:%S", &tm);
	fprintf(stderr, "hub: %s.%03ld ", hms, ts.tv_nsec / 1000000);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
}

/* Connections and the like: only with -v */
static void logmsg(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void logmsg(const char *fmt, ...)
{
	va_list ap;

	if (!verbose)
		return;
	va_start(ap, fmt);
	vlog(fmt, ap);
	va_end(ap);
}

/* What happened to frames: always */
static void warnmsg(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void warnmsg(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vlog(fmt, ap);
	va_end(ap);
}

static time_t now_secs(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec;
}

static int set_nonblock(int fd)
{
	int fl = fcntl(fd, F_GETFL);

	if (fl < 0 || fcntl(fd, F_SETFL, fl | O_NONBLOCK) < 0)
		return -1;
	return fcntl(fd, F_SETFD, FD_CLOEXEC);
}

static void put_le32(unsigned char *p, uint32_t v)
{
	p[0] = v & 0xff;
	p[1] = (v >> 8) & 0xff;
	p[2] = (v >> 16) & 0xff;
	p[3] = (v >> 24) & 0xff;
}

static void put_le16(unsigned char *p, uint16_t v)
{
	p[0] = v & 0xff;
	p[1] = (v >> 8) & 0xff;
}

static int pcap_open(const char *path)
{
	unsigned char h[24];

	pcap = fopen(path, "wb");
	if (!pcap)
		return -1;
	put_le32(h, 0xa1b2c3d4);	/* magic, microsecond timestamps */
	put_le16(h + 4, 2);		/* version 2.4 */
	put_le16(h + 6, 4);
	put_le32(h + 8, 0);		/* thiszone */
	put_le32(h + 12, 0);		/* sigfigs */
	put_le32(h + 16, FRAME_MAX);	/* snaplen */
	put_le32(h + 20, 1);		/* LINKTYPE_ETHERNET */
	if (fwrite(h, sizeof(h), 1, pcap) != 1 || fflush(pcap))
		return -1;
	return 0;
}

static void pcap_write(const unsigned char *frame, uint32_t len)
{
	unsigned char h[16];
	struct timeval tv;

	if (!pcap)
		return;
	gettimeofday(&tv, NULL);
	put_le32(h, (uint32_t)tv.tv_sec);
	put_le32(h + 4, (uint32_t)tv.tv_usec);
	put_le32(h + 8, len);
	put_le32(h + 12, len);
	if (fwrite(h, sizeof(h), 1, pcap) != 1 ||
	    fwrite(frame, 1, len, pcap) != len || fflush(pcap)) {
		fprintf(stderr, "hub: pcap write failed: %s\n", strerror(errno));
		fclose(pcap);
		pcap = NULL;
	}
}

static void port_close(int i)
{
	struct port *p = &ports[i];

	warnmsg("port %u closed: %lu frames in, %lu out, %lu dropped, at most %zu bytes queued",
		p->id, p->rx_frames, p->tx_frames, p->drops, p->out_peak);
	close(p->fd);
	free(p->in);
	free(p->out);
	ports[i] = ports[--nports];
}

/* Queue one framed packet on port p; drops it if the queue is full. */
static void port_queue(struct port *p, const unsigned char *frame, uint32_t len)
{
	size_t need = 4 + (size_t)len;

	if (p->out_off && p->out_off == p->out_len)
		p->out_off = p->out_len = 0;
	if (p->out_len - p->out_off + need > OUTQ_MAX) {
		if (p->drops == p->stall_drops)
			warnmsg("port %u: %zu bytes queued: dropping frames",
				p->id, p->out_len - p->out_off);
		p->drops++;
		return;
	}
	if (p->out_len + need > p->out_cap) {
		/* compact first, then grow if still needed */
		if (p->out_off) {
			memmove(p->out, p->out + p->out_off,
				p->out_len - p->out_off);
			p->out_len -= p->out_off;
			p->out_off = 0;
		}
		if (p->out_len + need > p->out_cap) {
			size_t cap = p->out_cap ? p->out_cap : 65536;
			unsigned char *n;

			while (cap < p->out_len + need)
				cap *= 2;
			n = realloc(p->out, cap);
			if (!n) {
				p->drops++;
				return;
			}
			p->out = n;
			p->out_cap = cap;
		}
	}
	p->out[p->out_len++] = (len >> 24) & 0xff;
	p->out[p->out_len++] = (len >> 16) & 0xff;
	p->out[p->out_len++] = (len >> 8) & 0xff;
	p->out[p->out_len++] = len & 0xff;
	memcpy(p->out + p->out_len, frame, len);
	p->out_len += len;
	p->tx_frames++;
	if (p->out_len - p->out_off > p->out_peak)
		p->out_peak = p->out_len - p->out_off;
}

/* Returns -1 if the port must be closed. */
static int port_flush(struct port *p)
{
	while (p->out_off < p->out_len) {
		ssize_t n = send(p->fd, p->out + p->out_off,
				 p->out_len - p->out_off, MSG_NOSIGNAL);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			if (errno == EAGAIN || errno == EWOULDBLOCK)
				return 0;
			return -1;
		}
		p->out_off += (size_t)n;
		p->stuck_since = 0;
	}
	p->out_off = p->out_len = 0;
	return 0;
}

/*
 * Once a second: has a port's guest stopped reading?  An episode starts
 * when output is pending and none of it has been sent for STALL_SECS,
 * and ends when the queue is empty again.
 */
static void port_watch(struct port *p, time_t now)
{
	if (p->out_len == p->out_off) {
		if (p->stall_logged)
			warnmsg("port %u: read again, %lu frames dropped meanwhile",
				p->id, p->drops - p->stall_drops);
		p->stuck_since = 0;
		p->stall_logged = 0;
		p->stall_drops = p->drops;
		return;
	}
	if (!p->stuck_since) {
		p->stuck_since = now;
		return;
	}
	if (!p->stall_logged && now - p->stuck_since >= STALL_SECS) {
		warnmsg("port %u: %zu bytes queued, none read for %ld s",
			p->id, p->out_len - p->out_off,
			(long)(now - p->stuck_since));
		p->stall_logged = 1;
	}
}

static void forward(int from, const unsigned char *frame, uint32_t len)
{
	int i;

	pcap_write(frame, len);
	for (i = 0; i < nports; i++)
		if (i != from)
			port_queue(&ports[i], frame, len);
}

/* Read what is available on port i; returns -1 if it must be closed. */
static int port_read(int i)
{
	struct port *p = &ports[i];

	for (;;) {
		size_t want;
		ssize_t n;

		if (p->in_len < 4) {
			want = 4 - p->in_len;
		} else {
			uint32_t flen = ((uint32_t)p->in[0] << 24) |
					((uint32_t)p->in[1] << 16) |
					((uint32_t)p->in[2] << 8) | p->in[3];

			if (flen > FRAME_MAX) {
				fprintf(stderr, "hub: port %u: bad frame length %u\n",
					p->id, flen);
				return -1;
			}
			want = 4 + flen - p->in_len;
			if (want == 0) {
				p->rx_frames++;
				if (flen)
					forward(i, p->in + 4, flen);
				p->in_len = 0;
				continue;
			}
		}
		n = recv(p->fd, p->in + p->in_len, want, 0);
		if (n == 0)
			return -1;
		if (n < 0) {
			if (errno == EINTR)
				continue;
			if (errno == EAGAIN || errno == EWOULDBLOCK)
				return 0;
			return -1;
		}
		p->in_len += (size_t)n;
	}
}

static void watch_all(void)
{
	time_t now = now_secs();
	int i;

	for (i = 0; i < nports; i++)
		port_watch(&ports[i], now);
}

static void usage(void)
{
	fprintf(stderr,
		"usage: hub --socket PATH [--pcap FILE] [--parent PID] [-v]\n");
	exit(2);
}

int main(int argc, char **argv)
{
	const char *sock_path = NULL, *pcap_path = NULL;
	char tmp_path[sizeof(((struct sockaddr_un *)0)->sun_path)];
	struct sockaddr_un sa;
	struct sigaction sig;
	pid_t parent = getppid();
	int lfd, i;

	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--socket") && i + 1 < argc)
			sock_path = argv[++i];
		else if (!strcmp(argv[i], "--pcap") && i + 1 < argc)
			pcap_path = argv[++i];
		else if (!strcmp(argv[i], "--parent") && i + 1 < argc)
			parent = (pid_t)atoi(argv[++i]);
		else if (!strcmp(argv[i], "-v"))
			verbose = 1;
		else
			usage();
	}
	if (!sock_path)
		usage();

	/* Die with the lab: SIGTERM when the parent goes away. */
	prctl(PR_SET_PDEATHSIG, SIGTERM);
	if (kill(parent, 0) < 0 && errno == ESRCH)
		return 1;

	memset(&sig, 0, sizeof(sig));
	sig.sa_handler = on_signal;
	sigaction(SIGTERM, &sig, NULL);
	sigaction(SIGINT, &sig, NULL);
	sigaction(SIGHUP, &sig, NULL);
	signal(SIGPIPE, SIG_IGN);

	if (pcap_path && pcap_open(pcap_path)) {
		fprintf(stderr, "hub: %s: %s\n", pcap_path, strerror(errno));
		return 1;
	}

	memset(&sa, 0, sizeof(sa));
	sa.sun_family = AF_UNIX;
	if (snprintf(tmp_path, sizeof(tmp_path), "%s.tmp", sock_path) >=
	    (int)sizeof(tmp_path)) {
		fprintf(stderr, "hub: socket path too long: %s\n", sock_path);
		return 1;
	}
	memcpy(sa.sun_path, tmp_path, strlen(tmp_path) + 1);
	lfd = socket(AF_UNIX, SOCK_STREAM, 0);
	if (lfd < 0) {
		perror("hub: socket");
		return 1;
	}
	unlink(tmp_path);
	if (bind(lfd, (struct sockaddr *)&sa, sizeof(sa)) < 0 ||
	    listen(lfd, MAX_PORTS) < 0 || set_nonblock(lfd) < 0) {
		fprintf(stderr, "hub: %s: %s\n", tmp_path, strerror(errno));
		unlink(tmp_path);
		return 1;
	}
	if (rename(tmp_path, sock_path) < 0) {
		fprintf(stderr, "hub: rename to %s: %s\n", sock_path,
			strerror(errno));
		unlink(tmp_path);
		return 1;
	}
	logmsg("listening on %s", sock_path);

	while (!stop) {
		struct pollfd pfd[MAX_PORTS + 1];
		int n, np = nports;

		if (kill(parent, 0) < 0 && errno == ESRCH)
			break;

		pfd[0].fd = lfd;
		pfd[0].events = nports < MAX_PORTS ? POLLIN : 0;
		pfd[0].revents = 0;
		for (i = 0; i < np; i++) {
			pfd[i + 1].fd = ports[i].fd;
			pfd[i + 1].events = POLLIN;
			if (ports[i].out_len > ports[i].out_off)
				pfd[i + 1].events |= POLLOUT;
			pfd[i + 1].revents = 0;
		}
		n = poll(pfd, (nfds_t)np + 1, 1000);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			perror("hub: poll");
			break;
		}
		if (n == 0) {
			watch_all();
			continue;
		}

		/*
		 * Handle the existing ports from the last one down, so that
		 * port_close() (which moves the last port into the hole) never
		 * moves an unhandled port.  Ports are only appended by accept
		 * below, after this loop.
		 */
		for (i = np - 1; i >= 0; i--) {
			short re = pfd[i + 1].revents;
			int bad = 0;

			if (!re)
				continue;
			if (re & (POLLIN | POLLHUP | POLLERR))
				bad = port_read(i) < 0;
			if (!bad && (re & POLLOUT))
				bad = port_flush(&ports[i]) < 0;
			if (bad)
				port_close(i);
		}
		/* Opportunistically push data queued by this round's reads. */
		for (i = nports - 1; i >= 0; i--)
			if (ports[i].out_len > ports[i].out_off &&
			    port_flush(&ports[i]) < 0)
				port_close(i);
		watch_all();

		if (pfd[0].revents & POLLIN) {
			for (;;) {
				int cfd = accept(lfd, NULL, NULL);
				struct port *p;

				if (cfd < 0)
					break;
				if (nports >= MAX_PORTS || set_nonblock(cfd) < 0) {
					close(cfd);
					continue;
				}
				p = &ports[nports];
				memset(p, 0, sizeof(*p));
				p->in = malloc(INBUF_SIZE);
				if (!p->in) {
					close(cfd);
					continue;
				}
				p->fd = cfd;
				p->id = next_port_id++;
				nports++;
				logmsg("port %u connected", p->id);
			}
		}
	}

	while (nports)
		port_close(nports - 1);
	close(lfd);
	unlink(sock_path);
	if (pcap)
		fclose(pcap);
	return 0;
}
