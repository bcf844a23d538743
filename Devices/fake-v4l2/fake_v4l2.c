// A fake V4L2 capture device in user space, for testing the V4L2 camera without hardware.
//
// There is no kernel video driver on the CI machines, but FUSE works: this mounts a folder
// holding one file, "video0", that answers the V4L2 ioctls libv4l2 and the rig use and serves
// frames through read(). It offers read() only (a FUSE file cannot be mmap'ed as a capture
// buffer), so it also exercises the camera's read() fallback.
//
//   fake-v4l2 MOUNTPOINT --frames FILE.raw --size WxH [--format GREY|YUYV]
//             [--open-error busy|denied] [--vanish-after N] [--no-capture] [--loop]
//             [--busy-at-sfmt] [--short-every N]
//
// FILE.raw holds the frames back to back, each W*H bytes of gray. With YUYV each gray pixel is
// served as Y with U=V=128. --vanish-after N: after N frames every call fails with ENODEV, as
// when a webcam is unplugged. --no-capture: QUERYCAP says it is not a capture device.
// --busy-at-sfmt: S_FMT fails with EBUSY, as a UVC camera refuses a second program (at S_FMT,
// not at open). --short-every N: every Nth frame is served short (half of it), as a camera
// that drops part of a frame on a busy bus. Runs in
// the foreground until unmounted (fusermount3 -u MOUNTPOINT) or killed, and prints "ready" on
// stdout once the folder is mounted.
#define FUSE_USE_VERSION 35
#include <errno.h>
#include <fcntl.h>
#include <fuse3/fuse.h>
#include <linux/videodev2.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static struct {
    unsigned char *frames;  // gray frames back to back
    size_t frame_count;
    unsigned width, height;
    unsigned pixelformat;   // V4L2_PIX_FMT_GREY or V4L2_PIX_FMT_YUYV
    int open_error;         // errno to fail open() with, or 0
    long vanish_after;      // frames served before the device disappears, or -1
    int no_capture;
    int loop;
    long served;            // whole frames served so far
    int vanished;
    int busy_at_sfmt;
    long short_every;       // every Nth frame (counting from 1) is served short, or 0
    int reqbufs_error;      // offer streaming, but refuse VIDIOC_REQBUFS with this errno; 0: no streaming
    int no_read;            // do not offer read()
} dev = {.pixelformat = V4L2_PIX_FMT_GREY, .vanish_after = -1};

static const char *node = "/video0";

static size_t bytes_per_pixel(void) { return dev.pixelformat == V4L2_PIX_FMT_YUYV ? 2 : 1; }
static size_t frame_size(void) { return (size_t)dev.width * dev.height * bytes_per_pixel(); }

static int fake_getattr(const char *path, struct stat *st, struct fuse_file_info *fi) {
    (void)fi;
    memset(st, 0, sizeof *st);
    if (strcmp(path, "/") == 0) {
        st->st_mode = S_IFDIR | 0755;
        st->st_nlink = 2;
        return 0;
    }
    if (strcmp(path, node) == 0) {
        st->st_mode = S_IFREG | 0666;
        st->st_nlink = 1;
        st->st_size = 0;
        return 0;
    }
    return -ENOENT;
}

static int fake_readdir(const char *path, void *buf, fuse_fill_dir_t fill, off_t off, struct fuse_file_info *fi,
                        enum fuse_readdir_flags flags) {
    (void)off, (void)fi, (void)flags;
    if (strcmp(path, "/") != 0) return -ENOENT;
    fill(buf, ".", NULL, 0, 0);
    fill(buf, "..", NULL, 0, 0);
    fill(buf, node + 1, NULL, 0, 0);
    return 0;
}

static int fake_open(const char *path, struct fuse_file_info *fi) {
    if (strcmp(path, node) != 0) return -ENOENT;
    if (dev.open_error) return -dev.open_error;
    if (dev.vanished) return -ENODEV;
    fi->direct_io = 1;   // every read() reaches us, with the caller's size
    fi->nonseekable = 1;
    return 0;
}

// Serves bytes of the stream of frames; offset k*frame_size() is the start of frame k.
static int fake_read(const char *path, char *buf, size_t size, off_t offset, struct fuse_file_info *fi) {
    (void)path, (void)fi;
    if (dev.vanished) return -ENODEV;
    size_t fs = frame_size();
    size_t index = (size_t)offset / fs, within = (size_t)offset % fs;
    if (dev.vanish_after >= 0 && (long)index >= dev.vanish_after) {
        dev.vanished = 1;
        return -ENODEV;
    }
    if (!dev.loop && index >= dev.frame_count) return 0;  // the recording ended
    const unsigned char *gray = dev.frames + (index % dev.frame_count) * dev.width * dev.height;
    size_t n = size < fs - within ? size : fs - within;
    // A short frame: its first read stops half way (the rest comes as a second short read).
    if (dev.short_every > 0 && (long)(index + 1) % dev.short_every == 0 && within < fs / 2 && within + n > fs / 2)
        n = fs / 2 - within;
    for (size_t i = 0; i < n; i++) {
        size_t at = within + i;
        if (bytes_per_pixel() == 1) buf[i] = (char)gray[at];
        else buf[i] = (char)(at % 2 == 0 ? gray[at / 2] : 128);
    }
    if (within + n == fs) dev.served = (long)index + 1;
    return (int)n;
}

static void fill_format(struct v4l2_format *f) {
    memset(&f->fmt.pix, 0, sizeof f->fmt.pix);
    f->type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
    f->fmt.pix.width = dev.width;
    f->fmt.pix.height = dev.height;
    f->fmt.pix.pixelformat = dev.pixelformat;
    f->fmt.pix.field = V4L2_FIELD_NONE;
    f->fmt.pix.bytesperline = dev.width * (unsigned)bytes_per_pixel();
    f->fmt.pix.sizeimage = (unsigned)frame_size();
    f->fmt.pix.colorspace = V4L2_COLORSPACE_SRGB;
}

static int fake_ioctl(const char *path, unsigned int cmd, void *arg, struct fuse_file_info *fi, unsigned int flags,
                      void *data) {
    (void)path, (void)arg, (void)fi;
    if (flags & FUSE_IOCTL_COMPAT) return -ENOSYS;
    if (dev.vanished) return -ENODEV;
    switch (cmd) {
    case VIDIOC_QUERYCAP: {
        struct v4l2_capability *cap = data;
        memset(cap, 0, sizeof *cap);
        strcpy((char *)cap->driver, "fake-v4l2");
        strcpy((char *)cap->card, "Field rig fake camera");
        strcpy((char *)cap->bus_info, "fuse:video0");
        cap->version = 0x050a00;
        unsigned caps = dev.no_capture ? V4L2_CAP_VIDEO_OUTPUT : V4L2_CAP_VIDEO_CAPTURE;
        if (!dev.no_capture && !dev.no_read) caps |= V4L2_CAP_READWRITE;
        if (!dev.no_capture && dev.reqbufs_error) caps |= V4L2_CAP_STREAMING;
        cap->capabilities = caps | V4L2_CAP_DEVICE_CAPS;
        cap->device_caps = caps;
        return 0;
    }
    case VIDIOC_ENUM_FMT: {
        struct v4l2_fmtdesc *d = data;
        if (d->type != V4L2_BUF_TYPE_VIDEO_CAPTURE || d->index > 0) return -EINVAL;
        unsigned index = d->index;
        memset(d, 0, sizeof *d);
        d->index = index;
        d->type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
        d->pixelformat = dev.pixelformat;
        strcpy((char *)d->description, dev.pixelformat == V4L2_PIX_FMT_GREY ? "8-bit Greyscale" : "YUYV 4:2:2");
        return 0;
    }
    case VIDIOC_ENUM_FRAMESIZES: {
        struct v4l2_frmsizeenum *s = data;
        if (s->index > 0 || s->pixel_format != dev.pixelformat) return -EINVAL;
        s->type = V4L2_FRMSIZE_TYPE_DISCRETE;
        s->discrete.width = dev.width;
        s->discrete.height = dev.height;
        return 0;
    }
    case VIDIOC_ENUM_FRAMEINTERVALS: {
        struct v4l2_frmivalenum *i = data;
        if (i->index > 0 || i->pixel_format != dev.pixelformat || i->width != dev.width || i->height != dev.height)
            return -EINVAL;
        i->type = V4L2_FRMIVAL_TYPE_DISCRETE;
        i->discrete.numerator = 1;
        i->discrete.denominator = 30;
        return 0;
    }
    case VIDIOC_S_FMT:
        if (dev.busy_at_sfmt) return -EBUSY;
        /* fall through */
    case VIDIOC_G_FMT:
    case VIDIOC_TRY_FMT: {
        struct v4l2_format *f = data;
        if (f->type != V4L2_BUF_TYPE_VIDEO_CAPTURE) return -EINVAL;
        fill_format(f);  // one size, one format: whatever was asked, this is what it gets
        return 0;
    }
    case VIDIOC_G_PARM:
    case VIDIOC_S_PARM: {
        struct v4l2_streamparm *p = data;
        if (p->type != V4L2_BUF_TYPE_VIDEO_CAPTURE) return -EINVAL;
        memset(&p->parm, 0, sizeof p->parm);
        p->parm.capture.capability = V4L2_CAP_TIMEPERFRAME;
        p->parm.capture.timeperframe.numerator = 1;
        p->parm.capture.timeperframe.denominator = 30;
        p->parm.capture.readbuffers = 1;
        return 0;
    }
    case VIDIOC_G_INPUT: {
        *(int *)data = 0;
        return 0;
    }
    case VIDIOC_REQBUFS:
        return dev.reqbufs_error ? -dev.reqbufs_error : -EINVAL;  // no streaming I/O: read() only
    default:
        return -ENOTTY;
    }
}

// Called once the folder is mounted: tells whoever started us that video0 can be opened.
static void *fake_init(struct fuse_conn_info *conn, struct fuse_config *cfg) {
    (void)conn;
    cfg->direct_io = 1;
    printf("ready\n");
    fflush(stdout);
    return NULL;
}

static const struct fuse_operations operations = {
    .init = fake_init,
    .getattr = fake_getattr,
    .readdir = fake_readdir,
    .open = fake_open,
    .read = fake_read,
    .ioctl = fake_ioctl,
};

static int usage(const char *why) {
    fprintf(stderr, "fake-v4l2: %s\nusage: fake-v4l2 MOUNTPOINT --frames FILE.raw --size WxH [--format GREY|YUYV] "
                    "[--open-error busy|denied] [--vanish-after N] [--no-capture] [--loop] [--busy-at-sfmt] "
                    "[--short-every N] [--reqbufs-error EIO|ENOMEM] [--no-read]\n", why);
    return 2;
}

int main(int argc, char **argv) {
    const char *mountpoint = NULL, *frames = NULL;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (strcmp(a, "--frames") == 0 && v) frames = argv[++i];
        else if (strcmp(a, "--size") == 0 && v) {
            if (sscanf(argv[++i], "%ux%u", &dev.width, &dev.height) != 2 || !dev.width || !dev.height)
                return usage("--size takes WxH");
        } else if (strcmp(a, "--format") == 0 && v) {
            i++;
            if (strcmp(v, "GREY") == 0) dev.pixelformat = V4L2_PIX_FMT_GREY;
            else if (strcmp(v, "YUYV") == 0) dev.pixelformat = V4L2_PIX_FMT_YUYV;
            else return usage("--format takes GREY or YUYV");
        } else if (strcmp(a, "--open-error") == 0 && v) {
            i++;
            if (strcmp(v, "busy") == 0) dev.open_error = EBUSY;
            else if (strcmp(v, "denied") == 0) dev.open_error = EACCES;
            else return usage("--open-error takes busy or denied");
        } else if (strcmp(a, "--vanish-after") == 0 && v) dev.vanish_after = atol(argv[++i]);
        else if (strcmp(a, "--no-capture") == 0) dev.no_capture = 1;
        else if (strcmp(a, "--loop") == 0) dev.loop = 1;
        else if (strcmp(a, "--busy-at-sfmt") == 0) dev.busy_at_sfmt = 1;
        else if (strcmp(a, "--short-every") == 0 && v) dev.short_every = atol(argv[++i]);
        else if (strcmp(a, "--reqbufs-error") == 0 && v) {
            i++;
            if (strcmp(v, "EIO") == 0) dev.reqbufs_error = EIO;
            else if (strcmp(v, "ENOMEM") == 0) dev.reqbufs_error = ENOMEM;
            else return usage("--reqbufs-error takes EIO or ENOMEM");
        } else if (strcmp(a, "--no-read") == 0) dev.no_read = 1;
        else if (a[0] != '-' && !mountpoint) mountpoint = a;
        else return usage("unknown argument");
    }
    if (!mountpoint || !frames || !dev.width) return usage("MOUNTPOINT, --frames and --size are needed");

    FILE *f = fopen(frames, "rb");
    if (!f) return fprintf(stderr, "fake-v4l2: %s: %s\n", frames, strerror(errno)), 1;
    fseek(f, 0, SEEK_END);
    long size = ftell(f);
    rewind(f);
    size_t gray = (size_t)dev.width * dev.height;
    if (size <= 0 || (size_t)size % gray != 0)
        return fprintf(stderr, "fake-v4l2: %s: not a whole number of %ux%u gray frames\n", frames, dev.width, dev.height), 1;
    dev.frames = malloc((size_t)size);
    if (!dev.frames || fread(dev.frames, 1, (size_t)size, f) != (size_t)size) return fprintf(stderr, "fake-v4l2: cannot read %s\n", frames), 1;
    fclose(f);
    dev.frame_count = (size_t)size / gray;

    // -f: stay in the foreground; -s: one thread, so the counters need no lock.
    char *fuse_argv[] = {argv[0], (char *)mountpoint, "-f", "-s", "-o", "fsname=fake-v4l2", NULL};
    return fuse_main(6, fuse_argv, &operations, NULL);
}
