"use client";

import { useTheme } from "next-themes";
import { buttonClass } from "@/components/ui/button";
import { MoonIcon, SunIcon } from "@/components/ui/icons";
import { Menu, MenuRadio } from "@/components/ui/menu";

/** Light, dark or the system setting. The icon follows the `dark` class, so the server render needs no theme. */
export function ThemeToggle() {
  const { theme, setTheme } = useTheme();
  return (
    <Menu
      trigger={
        <button type="button" aria-label="Colour theme" className={buttonClass("ghost", "sm", "w-8 px-0")}>
          <SunIcon className="dark:hidden" />
          <MoonIcon className="hidden dark:block" />
        </button>
      }
    >
      <MenuRadio
        label="Colour theme"
        value={theme ?? "system"}
        onValueChange={setTheme}
        options={[
          { value: "system", label: "System" },
          { value: "light", label: "Light" },
          { value: "dark", label: "Dark" },
        ]}
      />
    </Menu>
  );
}
