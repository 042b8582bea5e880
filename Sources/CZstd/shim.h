#ifndef SELECTLOG_CZSTD_SHIM_H
#define SELECTLOG_CZSTD_SHIM_H
#include <zstd.h>
#endif
