#ifndef FIELDRIG_CV4L2_SHIM_H
#define FIELDRIG_CV4L2_SHIM_H
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/eventfd.h>
#include <stdio.h>
#include <linux/videodev2.h>
#include <libv4l2.h>

/// v4l2_ioctl is variadic; this passes the one argument every V4L2 request takes.
static inline int fieldrig_v4l2_ioctl(int fd, unsigned long request, void *arg) {
    return v4l2_ioctl(fd, request, arg);
}

/// Where libv4l2 writes its own messages (stderr when NULL).
static inline void fieldrig_v4l2_log_to(FILE *file) { v4l2_log_file = file; }

// The VIDIOC_* request numbers and V4L2_PIX_FMT_* codes are function-like macros (_IOWR,
// v4l2_fourcc); Swift imports none of them, so each one Swift uses is exported here.
static inline unsigned long fieldrig_VIDIOC_QUERYCAP(void) { return VIDIOC_QUERYCAP; }
static inline unsigned long fieldrig_VIDIOC_ENUM_FMT(void) { return VIDIOC_ENUM_FMT; }
static inline unsigned long fieldrig_VIDIOC_ENUM_FRAMESIZES(void) { return VIDIOC_ENUM_FRAMESIZES; }
static inline unsigned long fieldrig_VIDIOC_ENUM_FRAMEINTERVALS(void) { return VIDIOC_ENUM_FRAMEINTERVALS; }
static inline unsigned long fieldrig_VIDIOC_S_FMT(void) { return VIDIOC_S_FMT; }
static inline unsigned long fieldrig_VIDIOC_S_PARM(void) { return VIDIOC_S_PARM; }
static inline unsigned long fieldrig_VIDIOC_G_PARM(void) { return VIDIOC_G_PARM; }
static inline unsigned long fieldrig_VIDIOC_G_FMT(void) { return VIDIOC_G_FMT; }
static inline unsigned long fieldrig_VIDIOC_REQBUFS(void) { return VIDIOC_REQBUFS; }
static inline unsigned long fieldrig_VIDIOC_QUERYBUF(void) { return VIDIOC_QUERYBUF; }
static inline unsigned long fieldrig_VIDIOC_QBUF(void) { return VIDIOC_QBUF; }
static inline unsigned long fieldrig_VIDIOC_DQBUF(void) { return VIDIOC_DQBUF; }
static inline unsigned long fieldrig_VIDIOC_STREAMON(void) { return VIDIOC_STREAMON; }
static inline unsigned long fieldrig_VIDIOC_STREAMOFF(void) { return VIDIOC_STREAMOFF; }
static inline unsigned int fieldrig_V4L2_PIX_FMT_GREY(void) { return V4L2_PIX_FMT_GREY; }
static inline unsigned int fieldrig_V4L2_PIX_FMT_YUYV(void) { return V4L2_PIX_FMT_YUYV; }
static inline unsigned int fieldrig_V4L2_PIX_FMT_YUV420(void) { return V4L2_PIX_FMT_YUV420; }
static inline unsigned int fieldrig_V4L2_PIX_FMT_NV12(void) { return V4L2_PIX_FMT_NV12; }
static inline unsigned int fieldrig_V4L2_PIX_FMT_MJPEG(void) { return V4L2_PIX_FMT_MJPEG; }
static inline unsigned int fieldrig_V4L2_PIX_FMT_JPEG(void) { return V4L2_PIX_FMT_JPEG; }
#endif
