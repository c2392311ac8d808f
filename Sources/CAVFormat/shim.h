#include <libavformat/avformat.h>
#include <libavformat/avio.h>
