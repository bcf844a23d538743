// A fake V4L2 capture device in user space, for testing the V4L2 camera without hardware.
//
// There is no kernel video driver on the CI machines, but FUSE works: this mounts a folder
// holding one file, "video0", that answers the V4L2 ioctls libv4l2 and the rig use, and behaves
// like a typical UVC webcam where asked to: several formats (GREY, YUYV, MJPEG), sizes and frame
// rates, the nearest size when asked for one it lacks, padded rows, read() or mmap streaming
// (served through the page cache: a FUSE file opened without direct I/O can be mapped, and the
// device invalidates a buffer's pages when it fills it), EBUSY at S_FMT/REQBUFS/STREAMON for a
// second program, short and flagged frames, unplugging, stalls that block a call or stay quiet,
// and STREAMON refused for bandwidth.
//
//   fake-v4l2 MOUNTPOINT --frames FILE.raw --size WxH [options]   (see usage() below)
//
// FILE.raw holds the source frames back to back, each W*H bytes of gray. Each mode serves them
// scaled (nearest pixel) to its size: GREY as is, YUYV with U=V=128, MJPEG as a JPEG of the frame
// (4:2:2 YCbCr, as UVC cameras send; with --no-dht without its Huffman tables, as many do).
// Runs in the foreground until unmounted (fusermount3 -u MOUNTPOINT) or killed, and prints
// "ready" on stdout once the folder is mounted.
#define FUSE_USE_VERSION 35
#include <errno.h>
#include <fcntl.h>
#include <fuse3/fuse_lowlevel.h>
#include <stdio.h>  // before jpeglib.h, which needs FILE
#include <jpeglib.h>
#include <linux/videodev2.h>
#include <poll.h>
#include <pthread.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <signal.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define INO_DEVICE 2
#define MAX_MODES 8
#define MAX_BUFFERS 8
#define MAX_PENDING 16
#define PAGE 4096

struct mode {
    unsigned fourcc, width, height, fps;
};

struct buffer {
    unsigned char *data;  // what the device last wrote into this buffer
    uint32_t bytesused, flags, sequence;
    struct timeval timestamp;
    int queued, done;
};

static struct {
    // What the device is.
    unsigned char *frames;  // gray source frames back to back
    size_t frame_count;
    unsigned source_width, source_height;
    struct mode modes[MAX_MODES];
    int mode_count;
    unsigned pad;            // extra bytes at the end of every row of GREY and YUYV
    int open_error;          // errno to fail open() with, or 0
    long vanish_after;       // frames served before the device disappears, or -1
    int no_capture, loop, busy_at_sfmt, no_read, no_dht;
    int mmap_mode;           // streaming through the page cache (and no read())
    int offer_streaming;     // in read() mode, offer streaming too (mmap then fails, as on a direct-I/O file)
    long short_every;        // every Nth frame (counting from 1) is short, or 0
    long flag_every;         // every Nth frame is flagged V4L2_BUF_FLAG_ERROR (mmap), or 0
    int reqbufs_error;       // refuse VIDIOC_REQBUFS with this errno, or 0
    long stall_after;        // frames served before the device stalls, or -1
    int stall_blocking;      // a stall blocks read()/DQBUF instead of leaving them with nothing
    int resume_on_reopen;    // a stall ends when the device is opened again
    unsigned enospc_above;   // STREAMON fails with ENOSPC for uncompressed modes wider than this, or 0
    long latency_ms;         // how long before delivery a frame was captured (its timestamp)
    int burst;               // STREAMON fills every queued buffer at once, as if the reader were late

    // What it is doing. Everything below is under lock.
    int current;             // index of the current mode
    long served;             // frames delivered so far
    int vanished, stalled;
    int ended;               // the recording ran out (mmap): no more frames, those done still count
    uint64_t owner;          // the open file that set the format or holds the buffers, or 0
    uint64_t next_fh;
    struct buffer buffers[MAX_BUFFERS];
    int buffer_count, streaming, burst_pending;
    size_t buffer_span;      // bytes between buffers in the mapped file (page-aligned)
    int done_order[MAX_BUFFERS], done_count;   // filled buffers, oldest first
    int queue_order[MAX_BUFFERS], queue_count; // buffers waiting to be filled, in QBUF order
    uint32_t sequence;
    fuse_req_t pending[MAX_PENDING];  // blocked read()/DQBUF requests
    int pending_count;
    struct fuse_pollhandle *poll_handle;
    unsigned char **encoded;  // frames in the current mode, made once each
    size_t *encoded_size;
    pthread_mutex_t lock;
    pthread_cond_t wake;
    struct fuse_session *session;
} dev = {.vanish_after = -1, .stall_after = -1, .lock = PTHREAD_MUTEX_INITIALIZER, .wake = PTHREAD_COND_INITIALIZER};

static const struct mode *mode_now(void) { return &dev.modes[dev.current]; }
static unsigned bytes_per_pixel(unsigned fourcc) { return fourcc == V4L2_PIX_FMT_YUYV ? 2 : 1; }
static unsigned line_bytes(const struct mode *m) {
    return m->fourcc == V4L2_PIX_FMT_MJPEG ? 0 : m->width * bytes_per_pixel(m->fourcc) + dev.pad;
}
static size_t image_size(const struct mode *m) {
    return m->fourcc == V4L2_PIX_FMT_MJPEG ? (size_t)m->width * m->height * 2 : (size_t)line_bytes(m) * m->height;
}
static size_t max_span(void) {
    size_t span = 0;
    for (int i = 0; i < dev.mode_count; i++) {
        size_t s = (image_size(&dev.modes[i]) + PAGE - 1) / PAGE * PAGE;
        if (s > span) span = s;
    }
    return span;
}

// MARK: - Frames

struct jpeg_sink {
    struct jpeg_destination_mgr manager;
    unsigned char *data;
    size_t size, capacity;
};
static void sink_init(j_compress_ptr c) {
    struct jpeg_sink *s = (struct jpeg_sink *)c->dest;
    s->manager.next_output_byte = s->data;
    s->manager.free_in_buffer = s->capacity;
}
static boolean sink_grow(j_compress_ptr c) {
    struct jpeg_sink *s = (struct jpeg_sink *)c->dest;
    size_t used = s->capacity;
    s->capacity *= 2;
    s->data = realloc(s->data, s->capacity);
    if (!s->data) abort();
    s->manager.next_output_byte = s->data + used;
    s->manager.free_in_buffer = s->capacity - used;
    return TRUE;
}
static void sink_done(j_compress_ptr c) {
    struct jpeg_sink *s = (struct jpeg_sink *)c->dest;
    s->size = s->capacity - s->manager.free_in_buffer;
}

// A JPEG of `gray` (w x h) as a UVC camera sends it: YCbCr, chroma halved across.
static unsigned char *encode_jpeg(const unsigned char *gray, unsigned w, unsigned h, size_t *size) {
    struct jpeg_compress_struct c;
    struct jpeg_error_mgr e;
    c.err = jpeg_std_error(&e);
    jpeg_create_compress(&c);
    struct jpeg_sink sink = {.capacity = (size_t)w * h / 2 + 4096};
    sink.data = malloc(sink.capacity);
    sink.manager.init_destination = sink_init;
    sink.manager.empty_output_buffer = sink_grow;
    sink.manager.term_destination = sink_done;
    c.dest = &sink.manager;
    c.image_width = w;
    c.image_height = h;
    c.input_components = 3;
    c.in_color_space = JCS_RGB;
    jpeg_set_defaults(&c);
    jpeg_set_quality(&c, 90, TRUE);
    c.comp_info[0].h_samp_factor = 2;
    c.comp_info[0].v_samp_factor = 1;
    jpeg_start_compress(&c, TRUE);
    unsigned char *row = malloc((size_t)w * 3);
    while (c.next_scanline < h) {
        for (unsigned x = 0; x < w; x++) row[3 * x] = row[3 * x + 1] = row[3 * x + 2] = gray[(size_t)c.next_scanline * w + x];
        JSAMPROW rows[1] = {row};
        jpeg_write_scanlines(&c, rows, 1);
    }
    jpeg_finish_compress(&c);
    jpeg_destroy_compress(&c);
    free(row);
    if (dev.no_dht) {  // drop the DHT segments: the decoder must know the standard tables
        size_t out = 2;
        for (size_t at = 2; at + 4 <= sink.size;) {
            if (sink.data[at] != 0xFF) break;
            unsigned marker = sink.data[at + 1];
            size_t length = (size_t)sink.data[at + 2] << 8 | sink.data[at + 3];
            if (marker == 0xDA) {  // start of scan: the rest is entropy-coded data
                memmove(sink.data + out, sink.data + at, sink.size - at);
                out += sink.size - at;
                break;
            }
            if (marker != 0xC4) {
                memmove(sink.data + out, sink.data + at, length + 2);
                out += length + 2;
            }
            at += length + 2;
        }
        sink.size = out;
    }
    *size = sink.size;
    return sink.data;
}

// Frame `index` of the recording in mode `m`, made once (under lock).
static const unsigned char *frame_bytes(size_t index, size_t *size) {
    const struct mode *m = mode_now();
    index %= dev.frame_count;
    if (!dev.encoded) {
        dev.encoded = calloc(dev.frame_count, sizeof *dev.encoded);
        dev.encoded_size = calloc(dev.frame_count, sizeof *dev.encoded_size);
    }
    if (!dev.encoded[index]) {
        const unsigned char *source = dev.frames + index * dev.source_width * dev.source_height;
        unsigned char *gray = malloc((size_t)m->width * m->height);
        for (unsigned y = 0; y < m->height; y++)
            for (unsigned x = 0; x < m->width; x++)
                gray[(size_t)y * m->width + x] =
                    source[(size_t)(y * dev.source_height / m->height) * dev.source_width + x * dev.source_width / m->width];
        if (m->fourcc == V4L2_PIX_FMT_MJPEG) {
            dev.encoded[index] = encode_jpeg(gray, m->width, m->height, &dev.encoded_size[index]);
        } else {
            size_t stride = line_bytes(m);
            unsigned char *out = calloc(stride * m->height, 1);
            for (unsigned y = 0; y < m->height; y++)
                for (unsigned x = 0; x < m->width; x++) {
                    unsigned char v = gray[(size_t)y * m->width + x];
                    if (m->fourcc == V4L2_PIX_FMT_YUYV) {
                        out[y * stride + 2 * x] = v;
                        out[y * stride + 2 * x + 1] = 128;
                    } else {
                        out[y * stride + x] = v;
                    }
                }
            dev.encoded[index] = out;
            dev.encoded_size[index] = stride * m->height;
        }
        free(gray);
    }
    *size = dev.encoded_size[index];
    return dev.encoded[index];
}

static void forget_frames(void) {
    if (!dev.encoded) return;
    for (size_t i = 0; i < dev.frame_count; i++) free(dev.encoded[i]);
    free(dev.encoded);
    free(dev.encoded_size);
    dev.encoded = NULL;
    dev.encoded_size = NULL;
}

static int nonblocking(const struct fuse_file_info *fi) { return (int)(fi->fh & 1); }
static int is_nth(long every, long served) { return every > 0 && (served + 1) % every == 0; }

// MARK: - Waiting requests and poll

static void notify_poll(void) {
    if (dev.poll_handle) {
        fuse_lowlevel_notify_poll(dev.poll_handle);
        fuse_pollhandle_destroy(dev.poll_handle);
        dev.poll_handle = NULL;
    }
}

static int add_pending(fuse_req_t req) {
    if (dev.pending_count == MAX_PENDING) return 0;
    dev.pending[dev.pending_count++] = req;
    return 1;
}

static void fail_pending(int error) {
    for (int i = 0; i < dev.pending_count; i++) fuse_reply_err(dev.pending[i], error);
    dev.pending_count = 0;
}

// MARK: - Streaming

static void release_buffers(void) {
    for (int i = 0; i < dev.buffer_count; i++) free(dev.buffers[i].data);
    memset(dev.buffers, 0, sizeof dev.buffers);
    dev.buffer_count = dev.streaming = dev.done_count = dev.queue_count = 0;
}

static void describe_buffer(int index, struct v4l2_buffer *b) {
    const struct buffer *x = &dev.buffers[index];
    memset(b, 0, sizeof *b);
    b->index = (unsigned)index;
    b->type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
    b->memory = V4L2_MEMORY_MMAP;
    b->m.offset = (unsigned)(index * dev.buffer_span);
    b->length = (unsigned)image_size(mode_now());
    b->bytesused = x->bytesused;
    b->sequence = x->sequence;
    b->timestamp = x->timestamp;
    b->field = V4L2_FIELD_NONE;
    b->flags = V4L2_BUF_FLAG_MAPPED | V4L2_BUF_FLAG_TIMESTAMP_MONOTONIC | x->flags;
    if (x->queued) b->flags |= V4L2_BUF_FLAG_QUEUED;
    if (x->done) b->flags |= V4L2_BUF_FLAG_DONE;
}

static int take_done(struct v4l2_buffer *b) {
    if (dev.done_count == 0) return 0;
    int index = dev.done_order[0];
    memmove(dev.done_order, dev.done_order + 1, sizeof(int) * (size_t)--dev.done_count);
    dev.buffers[index].done = 0;
    describe_buffer(index, b);
    return 1;
}

// Fills the oldest queued buffer with the next frame, captured `ago` nanoseconds before now;
// the buffer's index, or -1 when the reader holds every buffer (the frame is lost). Not yet done.
static int fill_one(long long ago) {
    if (dev.queue_count == 0) return -1;
    int index = dev.queue_order[0];
    memmove(dev.queue_order, dev.queue_order + 1, sizeof(int) * (size_t)--dev.queue_count);
    struct buffer *b = &dev.buffers[index];
    size_t size;
    const unsigned char *bytes = frame_bytes((size_t)dev.served, &size);
    size_t length = image_size(mode_now());
    if (size > length) size = length;
    memcpy(b->data, bytes, size);
    b->bytesused = (uint32_t)(is_nth(dev.short_every, dev.served) ? size / 2 : size);
    b->flags = is_nth(dev.flag_every, dev.served) ? V4L2_BUF_FLAG_ERROR : 0;
    b->sequence = dev.sequence++;
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    long long ns = (long long)now.tv_sec * 1000000000LL + now.tv_nsec - ago - dev.latency_ms * 1000000LL;
    b->timestamp.tv_sec = ns / 1000000000LL;
    b->timestamp.tv_usec = ns % 1000000000LL / 1000;
    b->queued = 0;
    dev.served++;
    // The reader maps this buffer through the page cache: drop the pages it holds, so its next
    // look reads what was just written. (Not under the lock: the kernel may need a read answered.)
    pthread_mutex_unlock(&dev.lock);
    fuse_lowlevel_notify_inval_inode(dev.session, INO_DEVICE, (off_t)(index * dev.buffer_span), (off_t)dev.buffer_span);
    pthread_mutex_lock(&dev.lock);
    return index;
}

// Hands filled buffers to the reader: DQBUF and poll see them from now on.
static void complete(const int *indices, int count) {
    for (int i = 0; i < count; i++) {
        int index = indices[i];
        if (index < 0 || !dev.streaming || index >= dev.buffer_count || !dev.buffers[index].data) continue;  // stopped meanwhile
        dev.buffers[index].done = 1;
        dev.done_order[dev.done_count++] = index;
    }
    while (!dev.stall_blocking && dev.pending_count > 0 && dev.done_count > 0) {  // a blocking DQBUF waiting for a frame
        struct v4l2_buffer out;
        take_done(&out);
        fuse_reply_ioctl(dev.pending[0], 0, &out, sizeof out);
        memmove(dev.pending, dev.pending + 1, sizeof(fuse_req_t) * (size_t)--dev.pending_count);
    }
    notify_poll();
}

static void check_limits(void) {
    if (dev.vanish_after >= 0 && dev.served >= dev.vanish_after && !dev.vanished) {
        dev.vanished = 1;
        fail_pending(ENODEV);
        notify_poll();
    }
    if (dev.stall_after >= 0 && dev.served >= dev.stall_after) dev.stalled = 1;
}

// The camera's sensor: a frame every 1/fps seconds while streaming.
static void *capture(void *unused) {
    (void)unused;
    pthread_mutex_lock(&dev.lock);
    for (;;) {
        struct timespec next;
        clock_gettime(CLOCK_MONOTONIC, &next);
        long long interval = 1000000000LL / (mode_now()->fps ? mode_now()->fps : 30);
        next.tv_nsec += interval % 1000000000LL;
        next.tv_sec += interval / 1000000000LL + next.tv_nsec / 1000000000LL;
        next.tv_nsec %= 1000000000LL;
        if (!dev.burst_pending) {
            pthread_mutex_unlock(&dev.lock);
            while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &next, NULL) == EINTR) {}
            pthread_mutex_lock(&dev.lock);
        }
        int burst = dev.burst_pending;
        dev.burst_pending = 0;
        if (!dev.streaming || dev.vanished || dev.stalled || dev.ended) continue;
        if (burst) {  // every queued buffer, filled one interval apart, done at once
            int filled[MAX_BUFFERS], count = 0;
            for (int n = dev.queue_count; n > 0 && dev.streaming; n--) filled[count++] = fill_one((long long)(n - 1) * interval);
            complete(filled, count);
        } else {
            int filled = fill_one(0);
            complete(&filled, 1);
        }
        check_limits();
        if (!dev.loop && dev.served >= (long)dev.frame_count) dev.ended = 1;  // the recording ran out
    }
    return NULL;
}

// MARK: - The file system

static void fill_attr(fuse_ino_t ino, struct stat *st) {
    memset(st, 0, sizeof *st);
    st->st_ino = ino;
    if (ino == FUSE_ROOT_ID) {
        st->st_mode = S_IFDIR | 0755;
        st->st_nlink = 2;
    } else {
        st->st_mode = S_IFREG | 0666;
        st->st_nlink = 1;
        // The buffers are mapped at offsets in the file: it must be long enough to hold them.
        st->st_size = dev.mmap_mode ? (off_t)(max_span() * MAX_BUFFERS) : 0;
    }
}

static void fake_lookup(fuse_req_t req, fuse_ino_t parent, const char *name) {
    if (parent != FUSE_ROOT_ID || strcmp(name, "video0") != 0) {
        fuse_reply_err(req, ENOENT);
        return;
    }
    struct fuse_entry_param e = {.ino = INO_DEVICE, .attr_timeout = 3600, .entry_timeout = 3600};
    fill_attr(INO_DEVICE, &e.attr);
    fuse_reply_entry(req, &e);
}

static void fake_getattr(fuse_req_t req, fuse_ino_t ino, struct fuse_file_info *fi) {
    (void)fi;
    struct stat st;
    if (ino != FUSE_ROOT_ID && ino != INO_DEVICE) {
        fuse_reply_err(req, ENOENT);
        return;
    }
    fill_attr(ino, &st);
    fuse_reply_attr(req, &st, 3600);
}

static void fake_readdir(fuse_req_t req, fuse_ino_t ino, size_t size, off_t off, struct fuse_file_info *fi) {
    (void)fi;
    if (ino != FUSE_ROOT_ID) {
        fuse_reply_err(req, ENOTDIR);
        return;
    }
    char buf[512];
    size_t used = 0;
    const char *names[] = {".", "..", "video0"};
    fuse_ino_t inos[] = {FUSE_ROOT_ID, FUSE_ROOT_ID, INO_DEVICE};
    for (off_t i = off; i < 3; i++) {
        struct stat st;
        fill_attr(inos[i], &st);
        size_t n = fuse_add_direntry(req, buf + used, sizeof buf - used, names[i], &st, i + 1);
        if (n > sizeof buf - used) break;
        used += n;
    }
    fuse_reply_buf(req, buf, used < size ? used : size);
}

static void fake_open(fuse_req_t req, fuse_ino_t ino, struct fuse_file_info *fi) {
    if (ino != INO_DEVICE) {
        fuse_reply_err(req, EISDIR);
        return;
    }
    pthread_mutex_lock(&dev.lock);
    int error = dev.open_error ? dev.open_error : dev.vanished ? ENODEV : 0;
    if (!error && dev.stalled && dev.resume_on_reopen) {
        // Opened again after a stall: the device starts over (the old opener's calls fail).
        dev.stalled = 0;
        dev.stall_after = -1;
        fail_pending(EIO);
        release_buffers();
        dev.owner = 0;
        notify_poll();
    }
    // The file handle remembers whether the opener wants non-blocking calls (ioctl requests do
    // not carry the open flags).
    fi->fh = ++dev.next_fh << 1 | ((fi->flags & O_NONBLOCK) != 0);
    pthread_mutex_unlock(&dev.lock);
    if (error) {
        fuse_reply_err(req, error);
        return;
    }
    fi->direct_io = !dev.mmap_mode;  // read(): every call reaches us; mmap: through the page cache
    fi->keep_cache = 0;
    fi->nonseekable = 1;
    fuse_reply_open(req, fi);
}

static void fake_release(fuse_req_t req, fuse_ino_t ino, struct fuse_file_info *fi) {
    (void)ino;
    pthread_mutex_lock(&dev.lock);
    if (dev.owner == fi->fh) {
        release_buffers();
        dev.owner = 0;
    }
    pthread_mutex_unlock(&dev.lock);
    fuse_reply_err(req, 0);
}

static void fake_read(fuse_req_t req, fuse_ino_t ino, size_t size, off_t offset, struct fuse_file_info *fi) {
    (void)ino;
    pthread_mutex_lock(&dev.lock);
    if (dev.mmap_mode) {  // the page cache filling a mapped buffer
        // Readahead asks for pages across several buffers at once: each piece from its own buffer.
        char *out = calloc(size ? size : 1, 1);
        size_t length = image_size(mode_now());
        for (size_t done = 0; dev.buffer_span && done < size;) {
            size_t at = (size_t)offset + done, index = at / dev.buffer_span, within = at % dev.buffer_span;
            size_t piece = dev.buffer_span - within < size - done ? dev.buffer_span - within : size - done;
            if (index < (size_t)dev.buffer_count && within < length)
                memcpy(out + done, dev.buffers[index].data + within, piece < length - within ? piece : length - within);
            done += piece;
        }
        pthread_mutex_unlock(&dev.lock);
        fuse_reply_buf(req, out, size);
        free(out);
        return;
    }
    if (dev.vanished) {
        pthread_mutex_unlock(&dev.lock);
        fuse_reply_err(req, ENODEV);
        return;
    }
    check_limits();
    if (dev.vanished) {
        pthread_mutex_unlock(&dev.lock);
        fuse_reply_err(req, ENODEV);
        return;
    }
    if (dev.stalled) {  // nothing comes: a blocking stall holds the call, a quiet one says "not yet"
        int held = (dev.stall_blocking || !nonblocking(fi)) && add_pending(req);
        pthread_mutex_unlock(&dev.lock);
        if (!held) fuse_reply_err(req, EAGAIN);
        return;
    }
    if (!dev.loop && dev.served >= (long)dev.frame_count) {  // the recording ended
        pthread_mutex_unlock(&dev.lock);
        fuse_reply_buf(req, NULL, 0);
        return;
    }
    size_t length;
    const unsigned char *bytes = frame_bytes((size_t)dev.served, &length);
    size_t n = size < length ? size : length;
    if (is_nth(dev.short_every, dev.served)) n = n / 2;  // part of the frame was lost on the bus
    dev.served++;
    unsigned char *copy = malloc(n ? n : 1);
    memcpy(copy, bytes, n);
    pthread_mutex_unlock(&dev.lock);
    fuse_reply_buf(req, (const char *)copy, n);
    free(copy);
}

static void fake_poll(fuse_req_t req, fuse_ino_t ino, struct fuse_file_info *fi, struct fuse_pollhandle *ph) {
    (void)ino, (void)fi;
    pthread_mutex_lock(&dev.lock);
    unsigned events = 0;
    if (dev.vanished) events = POLLERR | POLLHUP;
    else if (dev.mmap_mode || dev.streaming) events = dev.done_count > 0 && !dev.stalled ? POLLIN | POLLRDNORM : 0;
    else events = dev.stalled ? 0 : POLLIN | POLLRDNORM;
    if (ph) {
        if (events == 0) {
            if (dev.poll_handle) fuse_pollhandle_destroy(dev.poll_handle);
            dev.poll_handle = ph;
        } else {
            fuse_pollhandle_destroy(ph);
        }
    }
    pthread_mutex_unlock(&dev.lock);
    fuse_reply_poll(req, events);
}

static void fill_format(struct v4l2_format *f) {
    const struct mode *m = mode_now();
    memset(&f->fmt.pix, 0, sizeof f->fmt.pix);
    f->type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
    f->fmt.pix.width = m->width;
    f->fmt.pix.height = m->height;
    f->fmt.pix.pixelformat = m->fourcc;
    f->fmt.pix.field = V4L2_FIELD_NONE;
    f->fmt.pix.bytesperline = line_bytes(m);
    f->fmt.pix.sizeimage = (unsigned)image_size(m);
    f->fmt.pix.colorspace = m->fourcc == V4L2_PIX_FMT_MJPEG ? V4L2_COLORSPACE_JPEG : V4L2_COLORSPACE_SRGB;
}

// The mode a driver picks for a request: the asked format if it has it (else the current one),
// at the nearest size it has.
static int nearest_mode(unsigned fourcc, unsigned width, unsigned height) {
    int has = 0;
    for (int i = 0; i < dev.mode_count; i++) has |= dev.modes[i].fourcc == fourcc;
    if (!has) fourcc = mode_now()->fourcc;
    int best = -1;
    long best_distance = 0;
    for (int i = 0; i < dev.mode_count; i++) {
        if (dev.modes[i].fourcc != fourcc) continue;
        long distance = labs((long)dev.modes[i].width - (long)width) + labs((long)dev.modes[i].height - (long)height);
        if (best < 0 || distance < best_distance) best = i, best_distance = distance;
    }
    return best;
}

static int other_program(struct fuse_file_info *fi) { return dev.owner != 0 && dev.owner != fi->fh; }

#define REPLY(value) \
    do { \
        fuse_reply_ioctl(req, 0, &(value), out_size < sizeof(value) ? out_size : sizeof(value)); \
        return 0; \
    } while (0)

// One ioctl, under lock; the reply carries at most what the caller reads back (`out_size`).
// Returns an errno to reply with, or 0 when it has replied (or held the request).
static int handle_ioctl(fuse_req_t req, unsigned cmd, const void *in, size_t out_size, struct fuse_file_info *fi) {
    if (dev.vanished) return ENODEV;
    switch (cmd) {
    case VIDIOC_QUERYCAP: {
        struct v4l2_capability cap;
        memset(&cap, 0, sizeof cap);
        strcpy((char *)cap.driver, "fake-v4l2");
        strcpy((char *)cap.card, "Field rig fake camera");
        strcpy((char *)cap.bus_info, "fuse:video0");
        cap.version = 0x050a00;
        unsigned caps = dev.no_capture ? V4L2_CAP_VIDEO_OUTPUT : V4L2_CAP_VIDEO_CAPTURE;
        if (!dev.no_capture && !dev.no_read && !dev.mmap_mode) caps |= V4L2_CAP_READWRITE;
        if (!dev.no_capture && (dev.reqbufs_error || dev.mmap_mode || dev.offer_streaming)) caps |= V4L2_CAP_STREAMING;
        cap.capabilities = caps | V4L2_CAP_DEVICE_CAPS;
        cap.device_caps = caps;
        REPLY(cap);
    }
    case VIDIOC_ENUM_FMT: {
        struct v4l2_fmtdesc d = *(const struct v4l2_fmtdesc *)in;
        if (d.type != V4L2_BUF_TYPE_VIDEO_CAPTURE) return EINVAL;
        unsigned seen[MAX_MODES], count = 0;
        for (int i = 0; i < dev.mode_count; i++) {
            unsigned k = 0;
            while (k < count && seen[k] != dev.modes[i].fourcc) k++;
            if (k == count) seen[count++] = dev.modes[i].fourcc;
        }
        if (d.index >= count) return EINVAL;
        unsigned index = d.index, code = seen[index];
        memset(&d, 0, sizeof d);
        d.index = index;
        d.type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
        d.pixelformat = code;
        if (code == V4L2_PIX_FMT_MJPEG) d.flags = V4L2_FMT_FLAG_COMPRESSED;
        strcpy((char *)d.description, code == V4L2_PIX_FMT_GREY ? "8-bit Greyscale" : code == V4L2_PIX_FMT_YUYV ? "YUYV 4:2:2" : "Motion-JPEG");
        REPLY(d);
    }
    case VIDIOC_ENUM_FRAMESIZES: {
        struct v4l2_frmsizeenum s = *(const struct v4l2_frmsizeenum *)in;
        unsigned n = 0;
        for (int i = 0; i < dev.mode_count; i++) {
            if (dev.modes[i].fourcc != s.pixel_format) continue;
            if (n++ == s.index) {
                s.type = V4L2_FRMSIZE_TYPE_DISCRETE;
                s.discrete.width = dev.modes[i].width;
                s.discrete.height = dev.modes[i].height;
                REPLY(s);
            }
        }
        return EINVAL;
    }
    case VIDIOC_ENUM_FRAMEINTERVALS: {
        struct v4l2_frmivalenum v = *(const struct v4l2_frmivalenum *)in;
        for (int i = 0; i < dev.mode_count; i++) {
            const struct mode *m = &dev.modes[i];
            if (m->fourcc == v.pixel_format && m->width == v.width && m->height == v.height && v.index == 0) {
                v.type = V4L2_FRMIVAL_TYPE_DISCRETE;
                v.discrete.numerator = 1;
                v.discrete.denominator = m->fps;
                REPLY(v);
            }
        }
        return EINVAL;
    }
    case VIDIOC_S_FMT:
        if (dev.busy_at_sfmt || other_program(fi)) return EBUSY;
        if (dev.streaming || dev.buffer_count) return EBUSY;
        /* fall through */
    case VIDIOC_TRY_FMT: {
        struct v4l2_format f = *(const struct v4l2_format *)in;
        if (f.type != V4L2_BUF_TYPE_VIDEO_CAPTURE) return EINVAL;
        int chosen = nearest_mode(f.fmt.pix.pixelformat, f.fmt.pix.width, f.fmt.pix.height);
        int was = dev.current;
        dev.current = chosen;
        fill_format(&f);
        if (cmd == VIDIOC_S_FMT) {
            dev.owner = fi->fh;
            if (chosen != was) forget_frames();
        } else {
            dev.current = was;
        }
        REPLY(f);
    }
    case VIDIOC_G_FMT: {
        struct v4l2_format f = *(const struct v4l2_format *)in;
        if (f.type != V4L2_BUF_TYPE_VIDEO_CAPTURE) return EINVAL;
        fill_format(&f);
        REPLY(f);
    }
    case VIDIOC_G_PARM:
    case VIDIOC_S_PARM: {
        struct v4l2_streamparm p = *(const struct v4l2_streamparm *)in;
        if (p.type != V4L2_BUF_TYPE_VIDEO_CAPTURE) return EINVAL;
        memset(&p.parm, 0, sizeof p.parm);
        p.parm.capture.capability = V4L2_CAP_TIMEPERFRAME;
        p.parm.capture.timeperframe.numerator = 1;
        p.parm.capture.timeperframe.denominator = mode_now()->fps;  // one rate a mode: this is what it gets
        p.parm.capture.readbuffers = 1;
        REPLY(p);
    }
    case VIDIOC_G_INPUT: {
        int input = 0;
        REPLY(input);
    }
    case VIDIOC_REQBUFS: {
        struct v4l2_requestbuffers r = *(const struct v4l2_requestbuffers *)in;
        if (dev.reqbufs_error) return dev.reqbufs_error;
        if (!dev.mmap_mode && !dev.offer_streaming) return EINVAL;  // no streaming I/O: read() only
        if (r.type != V4L2_BUF_TYPE_VIDEO_CAPTURE || r.memory != V4L2_MEMORY_MMAP) return EINVAL;
        if (other_program(fi)) return EBUSY;
        if (dev.streaming) return EBUSY;
        release_buffers();
        if (r.count > 0) {
            r.count = r.count < 2 ? 2 : r.count > MAX_BUFFERS ? MAX_BUFFERS : r.count;
            dev.buffer_span = max_span();
            for (unsigned i = 0; i < r.count; i++) dev.buffers[i].data = calloc(image_size(mode_now()), 1);
            dev.buffer_count = (int)r.count;
            dev.owner = fi->fh;
        }
        r.capabilities = V4L2_BUF_CAP_SUPPORTS_MMAP;
        REPLY(r);
    }
    case VIDIOC_QUERYBUF:
    case VIDIOC_QBUF: {
        struct v4l2_buffer b = *(const struct v4l2_buffer *)in;
        if (b.type != V4L2_BUF_TYPE_VIDEO_CAPTURE || b.index >= (unsigned)dev.buffer_count) return EINVAL;
        if (other_program(fi)) return EBUSY;
        if (cmd == VIDIOC_QBUF) {
            struct buffer *x = &dev.buffers[b.index];
            if (x->queued || x->done) return EINVAL;
            x->queued = 1;
            dev.queue_order[dev.queue_count++] = (int)b.index;
        }
        describe_buffer((int)b.index, &b);
        REPLY(b);
    }
    case VIDIOC_DQBUF: {
        struct v4l2_buffer b;
        if (!dev.streaming) return EINVAL;
        if (dev.stalled && dev.stall_blocking) return add_pending(req) ? 0 : EAGAIN;  // held until resumed
        if (!dev.stalled && take_done(&b)) REPLY(b);
        if (nonblocking(fi)) return EAGAIN;
        return add_pending(req) ? 0 : EAGAIN;
    }
    case VIDIOC_STREAMON: {
        if (other_program(fi)) return EBUSY;
        if (dev.buffer_count == 0) return EINVAL;
        const struct mode *m = mode_now();
        if (dev.enospc_above && m->fourcc != V4L2_PIX_FMT_MJPEG && m->width > dev.enospc_above) return ENOSPC;
        dev.streaming = 1;
        dev.burst_pending = dev.burst;
        pthread_cond_signal(&dev.wake);
        int type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
        REPLY(type);
    }
    case VIDIOC_STREAMOFF: {
        if (other_program(fi)) return EBUSY;
        dev.streaming = 0;
        fail_pending(EINVAL);
        for (int i = 0; i < dev.buffer_count; i++) dev.buffers[i].queued = dev.buffers[i].done = 0;
        dev.queue_count = dev.done_count = 0;
        int type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
        REPLY(type);
    }
    default:
        return ENOTTY;
    }
}

static void fake_ioctl(fuse_req_t req, fuse_ino_t ino, unsigned int cmd, void *arg, struct fuse_file_info *fi, unsigned flags,
                       const void *in, size_t in_size, size_t out_size) {
    (void)ino, (void)arg, (void)in_size;
    if (flags & FUSE_IOCTL_COMPAT) {
        fuse_reply_err(req, ENOSYS);
        return;
    }
    pthread_mutex_lock(&dev.lock);
    int error = handle_ioctl(req, cmd, in, out_size, fi);
    pthread_mutex_unlock(&dev.lock);
    if (error) fuse_reply_err(req, error);
}

static void fake_init(void *userdata, struct fuse_conn_info *conn) {
    (void)userdata, (void)conn;
    printf("ready\n");
    fflush(stdout);
}

static const struct fuse_lowlevel_ops operations = {
    .init = fake_init,
    .lookup = fake_lookup,
    .getattr = fake_getattr,
    .readdir = fake_readdir,
    .open = fake_open,
    .release = fake_release,
    .read = fake_read,
    .ioctl = fake_ioctl,
    .poll = fake_poll,
};

static int usage(const char *why) {
    fprintf(stderr,
            "fake-v4l2: %s\n"
            "usage: fake-v4l2 MOUNTPOINT --frames FILE.raw --size WxH [options]\n"
            "  --format GREY|YUYV|MJPEG   the one mode: this format at WxH, 30 fps (default GREY)\n"
            "  --mode FMT:WxH@FPS         a mode (repeat for several; the first is the default)\n"
            "  --uvc                      a typical UVC webcam: MJPEG 1280x720@30 (default), YUYV 640x480@30,\n"
            "                             YUYV 1280x720@10; mmap streaming only\n"
            "  --pad N                    N extra bytes at the end of every GREY or YUYV row\n"
            "  --no-dht                   MJPEG frames without Huffman tables\n"
            "  --mmap                     mmap streaming through the page cache, no read()\n"
            "  --streaming                with read(), offer streaming too (its mmap fails)\n"
            "  --open-error busy|denied|gone  open() fails (EBUSY, EACCES, ENODEV)\n"
            "  --no-capture               not a capture device\n"
            "  --loop                     play the frames for ever (else the stream ends)\n"
            "  --vanish-after N           unplugged after N frames (ENODEV)\n"
            "  --busy-at-sfmt             S_FMT always EBUSY (another program is using it)\n"
            "  --short-every N            every Nth frame short by half\n"
            "  --flag-every N             every Nth mmap frame flagged V4L2_BUF_FLAG_ERROR\n"
            "  --reqbufs-error EIO|ENOMEM offer streaming but refuse REQBUFS\n"
            "  --no-read                  do not offer read()\n"
            "  --stall-after N            no frame after N frames\n"
            "  --stall blocking|quiet     a stall holds read()/DQBUF (blocking) or answers not-yet (quiet)\n"
            "  --resume-on-reopen         opening the device again ends a stall\n"
            "  --enospc-above W           STREAMON ENOSPC for uncompressed modes wider than W\n"
            "  --latency-ms N             frames are captured N ms before they are delivered\n"
            "  --burst                    STREAMON fills every queued buffer at once\n",
            why);
    return 2;
}

static int add_mode(unsigned fourcc, unsigned w, unsigned h, unsigned fps) {
    if (dev.mode_count == MAX_MODES || !w || !h || !fps) return 0;
    dev.modes[dev.mode_count++] = (struct mode){fourcc, w, h, fps};
    return 1;
}

static int parse_fourcc(const char *s, unsigned *code) {
    if (strcmp(s, "GREY") == 0) *code = V4L2_PIX_FMT_GREY;
    else if (strcmp(s, "YUYV") == 0) *code = V4L2_PIX_FMT_YUYV;
    else if (strcmp(s, "MJPEG") == 0 || strcmp(s, "MJPG") == 0) *code = V4L2_PIX_FMT_MJPEG;
    else return 0;
    return 1;
}

int main(int argc, char **argv) {
    const char *mountpoint = NULL, *frames = NULL;
    unsigned format = V4L2_PIX_FMT_GREY;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (strcmp(a, "--frames") == 0 && v) frames = argv[++i];
        else if (strcmp(a, "--size") == 0 && v) {
            if (sscanf(argv[++i], "%ux%u", &dev.source_width, &dev.source_height) != 2 || !dev.source_width || !dev.source_height)
                return usage("--size takes WxH");
        } else if (strcmp(a, "--format") == 0 && v) {
            if (!parse_fourcc(argv[++i], &format)) return usage("--format takes GREY, YUYV or MJPEG");
        } else if (strcmp(a, "--mode") == 0 && v) {
            char name[8];
            unsigned w, h, fps, code;
            if (sscanf(argv[++i], "%7[A-Z]:%ux%u@%u", name, &w, &h, &fps) != 4 || !parse_fourcc(name, &code) || !add_mode(code, w, h, fps))
                return usage("--mode takes FORMAT:WxH@FPS (at most 8)");
        } else if (strcmp(a, "--uvc") == 0) {
            add_mode(V4L2_PIX_FMT_MJPEG, 1280, 720, 30);
            add_mode(V4L2_PIX_FMT_YUYV, 640, 480, 30);
            add_mode(V4L2_PIX_FMT_YUYV, 1280, 720, 10);
            dev.mmap_mode = 1;
        } else if (strcmp(a, "--pad") == 0 && v) dev.pad = (unsigned)atoi(argv[++i]);
        else if (strcmp(a, "--no-dht") == 0) dev.no_dht = 1;
        else if (strcmp(a, "--mmap") == 0) dev.mmap_mode = 1;
        else if (strcmp(a, "--streaming") == 0) dev.offer_streaming = 1;
        else if (strcmp(a, "--open-error") == 0 && v) {
            i++;
            if (strcmp(v, "busy") == 0) dev.open_error = EBUSY;
            else if (strcmp(v, "denied") == 0) dev.open_error = EACCES;
            else if (strcmp(v, "gone") == 0) dev.open_error = ENODEV;
            else return usage("--open-error takes busy, denied or gone");
        } else if (strcmp(a, "--vanish-after") == 0 && v) dev.vanish_after = atol(argv[++i]);
        else if (strcmp(a, "--no-capture") == 0) dev.no_capture = 1;
        else if (strcmp(a, "--loop") == 0) dev.loop = 1;
        else if (strcmp(a, "--busy-at-sfmt") == 0) dev.busy_at_sfmt = 1;
        else if (strcmp(a, "--short-every") == 0 && v) dev.short_every = atol(argv[++i]);
        else if (strcmp(a, "--flag-every") == 0 && v) dev.flag_every = atol(argv[++i]);
        else if (strcmp(a, "--reqbufs-error") == 0 && v) {
            i++;
            if (strcmp(v, "EIO") == 0) dev.reqbufs_error = EIO;
            else if (strcmp(v, "ENOMEM") == 0) dev.reqbufs_error = ENOMEM;
            else return usage("--reqbufs-error takes EIO or ENOMEM");
        } else if (strcmp(a, "--no-read") == 0) dev.no_read = 1;
        else if (strcmp(a, "--stall-after") == 0 && v) dev.stall_after = atol(argv[++i]);
        else if (strcmp(a, "--stall") == 0 && v) {
            i++;
            if (strcmp(v, "blocking") == 0) dev.stall_blocking = 1;
            else if (strcmp(v, "quiet") == 0) dev.stall_blocking = 0;
            else return usage("--stall takes blocking or quiet");
        } else if (strcmp(a, "--resume-on-reopen") == 0) dev.resume_on_reopen = 1;
        else if (strcmp(a, "--enospc-above") == 0 && v) dev.enospc_above = (unsigned)atoi(argv[++i]);
        else if (strcmp(a, "--latency-ms") == 0 && v) dev.latency_ms = atol(argv[++i]);
        else if (strcmp(a, "--burst") == 0) dev.burst = 1;
        else if (a[0] != '-' && !mountpoint) mountpoint = a;
        else return usage("unknown argument");
    }
    if (!mountpoint || !frames || !dev.source_width) return usage("MOUNTPOINT, --frames and --size are needed");
    if (dev.mode_count == 0) add_mode(format, dev.source_width, dev.source_height, 30);

    FILE *f = fopen(frames, "rb");
    if (!f) return fprintf(stderr, "fake-v4l2: %s: %s\n", frames, strerror(errno)), 1;
    fseek(f, 0, SEEK_END);
    long size = ftell(f);
    rewind(f);
    size_t gray = (size_t)dev.source_width * dev.source_height;
    if (size <= 0 || (size_t)size % gray != 0)
        return fprintf(stderr, "fake-v4l2: %s: not a whole number of %ux%u gray frames\n", frames, dev.source_width, dev.source_height), 1;
    dev.frames = malloc((size_t)size);
    if (!dev.frames || fread(dev.frames, 1, (size_t)size, f) != (size_t)size) return fprintf(stderr, "fake-v4l2: cannot read %s\n", frames), 1;
    fclose(f);
    dev.frame_count = (size_t)size / gray;

    // A test that dies without unmounting must not leave the device behind; and a parent that
    // blocks signals (test runners do) must not stop SIGTERM from ending this.
    prctl(PR_SET_PDEATHSIG, SIGTERM);
    sigset_t none;
    sigemptyset(&none);
    pthread_sigmask(SIG_SETMASK, &none, NULL);
    char *fuse_argv[] = {argv[0], "-o", "fsname=fake-v4l2", NULL};
    struct fuse_args args = FUSE_ARGS_INIT(3, fuse_argv);
    dev.session = fuse_session_new(&args, &operations, sizeof operations, NULL);
    if (!dev.session) return fprintf(stderr, "fake-v4l2: cannot start a FUSE session\n"), 1;
    if (fuse_set_signal_handlers(dev.session) != 0 || fuse_session_mount(dev.session, mountpoint) != 0)
        return fprintf(stderr, "fake-v4l2: cannot mount %s\n", mountpoint), 1;
    // Signals (SIGTERM to stop) must reach the thread that answers requests, or its read of
    // /dev/fuse never ends: the sensor thread takes none.
    sigset_t all, before;
    sigfillset(&all);
    pthread_sigmask(SIG_BLOCK, &all, &before);
    pthread_t sensor;
    pthread_create(&sensor, NULL, capture, NULL);
    pthread_sigmask(SIG_SETMASK, &before, NULL);
    // One thread answers requests (so the state needs only the one lock the sensor shares);
    // held requests are answered later by the sensor or a later request.
    int result = fuse_session_loop(dev.session);
    fuse_session_unmount(dev.session);
    fuse_remove_signal_handlers(dev.session);
    fuse_session_destroy(dev.session);
    return result == 0 ? 0 : 1;
}
