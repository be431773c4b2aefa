// A project header: its names are checked.
#pragma once
inline int Project_Helper() { return 2; }
