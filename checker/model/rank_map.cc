#include "checker/model/rank_map.h"
