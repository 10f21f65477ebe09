package org.etw4j.nativebindings.windows;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.net.URL;
import java.net.URLClassLoader;
import java.util.Map;
import org.etw4j.Guid;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Issue 9 defect 3: how the ETW libraries are found. {@code System.load}/{@code System.loadLibrary} tie a library
 * to one class loader (a second loader gets "already loaded in another classloader") and {@code loadLibrary}
 * searches {@code java.library.path} (an application that sets it loses System32). The backend must open
 * advapi32/tdh (here: the stand-in) with {@code SymbolLookup.libraryLookup}, which knows neither rule.
 */
@Tag("standin")
class LibraryLoadingTest {

    /** A second class loader (e.g. another web application, a plugin) loads its own copy of the bindings. */
    @Test
    void aSecondClassLoaderLoadsTheLibraryAgainAndCallsIt() throws Exception {
        SimEtwEngine.install(); // loads the stand-in through this (the application) class loader first
        URL bindings = WindowsLibraries.class.getProtectionDomain().getCodeSource().getLocation();
        URL api = Guid.class.getProtectionDomain().getCodeSource().getLocation();
        try (URLClassLoader second = new URLClassLoader(new URL[] {bindings, api}, ClassLoader.getPlatformClassLoader())) {
            Class<?> libraries = Class.forName(WindowsLibraries.class.getName(), true, second);
            assertNotSame(WindowsLibraries.class, libraries, "the second loader has its own copy");
            try {
                libraries.getMethod("load").invoke(null);
            } catch (InvocationTargetException e) {
                throw new AssertionError("the second class loader could not load the library: " + e.getCause(), e.getCause());
            }
            // A downcall through the second loader's generated bindings reaches the same library (and engine).
            Class<?> etw = Class.forName("org.etw4j.nativebindings.generated.EtwNative", true, second);
            Method control = etw.getMethod("EventActivityIdControl", int.class, MemorySegment.class);
            try (Arena a = Arena.ofConfined()) {
                MemorySegment id = a.allocate(16, 8);
                assertEquals(0, control.invoke(null, 3, id), "EventActivityIdControl(CREATE_ID) through the second loader");
                assertNotEquals(0L, id.get(java.lang.foreign.ValueLayout.JAVA_LONG, 0) | id.get(java.lang.foreign.ValueLayout.JAVA_LONG, 8));
            }
        }
    }

    /** On Windows the libraries are opened by absolute System32 path: java.library.path plays no part. */
    @Test
    void onWindowsTheLibrariesComeFromSystem32WhateverJavaLibraryPathSays() {
        String before = System.getProperty("java.library.path");
        System.setProperty("java.library.path", "/nowhere/near/system32");
        try {
            assertEquals(java.util.List.of("C:\\Windows\\System32\\advapi32.dll", "C:\\Windows\\System32\\tdh.dll",
                    "C:\\Windows\\System32\\kernel32.dll"),
                    WindowsLibraries.systemLibraryFiles(Map.of("SystemRoot", "C:\\Windows")));
            assertEquals(java.util.List.of("D:\\WinNT\\System32\\advapi32.dll", "D:\\WinNT\\System32\\tdh.dll",
                    "D:\\WinNT\\System32\\kernel32.dll"),
                    WindowsLibraries.systemLibraryFiles(Map.of("windir", "D:\\WinNT")));
            // Without SystemRoot/windir: the bare names, for LoadLibrary's own search (System32 for these DLLs).
            assertEquals(java.util.List.of("advapi32.dll", "tdh.dll", "kernel32.dll"), WindowsLibraries.systemLibraryFiles(Map.of()));
        } finally {
            if (before == null) {
                System.clearProperty("java.library.path");
            } else {
                System.setProperty("java.library.path", before);
            }
        }
    }
}
