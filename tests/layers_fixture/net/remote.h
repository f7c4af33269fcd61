// Fixture for the layer check.
#pragma once
