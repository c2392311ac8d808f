#include <libavutil/avutil.h>
#include <libavutil/display.h>
#include <libavutil/imgutils.h>
#include <libavutil/pixdesc.h>
#include <libavutil/error.h>
// AVERROR(e) and AVERROR_EOF are macros Swift cannot import: constants with the same values.
static const int padbench_averror_eagain = AVERROR(EAGAIN);
static const int padbench_averror_eof = AVERROR_EOF;
static const int padbench_averror_enomem = AVERROR(ENOMEM);
