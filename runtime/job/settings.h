// The run-time settings, defined once. Each PURE_* setting has one row in
// settings.cpp: its name, what values it takes, its default, a help text,
// how to read a value into a Config, and how to check a Config's field.
// From that one table:
//   * Config::from_env reads and validates the environment (config.cpp);
//   * Config::validate checks a Config built in code;
//   * pure-settings (settings_main.cpp) prints it for `purerun --help` and
//     generates the README's table (tools/gen-readme-settings.py, checked
//     by a test).
#pragma once

#include <string>
#include <vector>

#include "pure/run.hpp"

namespace pure::settings {

struct Setting {
  const char* name;      // PURE_EAGER_LIMIT
  const char* values;    // what may be given, as help shows it: "64 to 1M bytes"
  const char* fallback;  // the default, as help shows it
  const char* help;      // what it means
  // Reads `text` into the Config: "" when it parsed, else what was expected
  // ("expected a byte count such as 8192 or 8K"). Ranges are check's.
  std::string (*read)(const char* text, Config& c);
  // The field as it is in a Config: "" when valid, else the error line
  // without the name ("=32: must be between 64 bytes and 1M").
  std::string (*check)(const Config& c);
};

const std::vector<Setting>& table();
// The row of `name`, or nullptr.
const Setting* find(const std::string& name);
// purerun's option for a setting: PURE_EAGER_LIMIT -> --eager-limit.
std::string option_of(const char* name);

}  // namespace pure::settings
