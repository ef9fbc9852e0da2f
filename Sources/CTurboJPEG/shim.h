#ifndef RELAY_CTURBOJPEG_SHIM_H
#define RELAY_CTURBOJPEG_SHIM_H
#include <stddef.h>
#include <turbojpeg.h>
#endif
