// A base header that reaches up into net: the layer check must refuse it.
#pragma once
#include "net/remote.h"
