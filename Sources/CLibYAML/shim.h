#ifndef RELAY_CLIBYAML_SHIM_H
#define RELAY_CLIBYAML_SHIM_H
#include <yaml.h>
#endif
