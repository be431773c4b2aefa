#include "project_api.h"
#include <system_api.h>

int Main_Helper() { return System_Helper() + Project_Helper(); }
