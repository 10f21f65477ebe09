@echo off
rem etw - the etw4j command line (Windows launcher, for cmd.exe and PowerShell; bin/etw is the POSIX one).
rem
rem Runs org.etw4j.cli.EtwCommand from lib\ with a JDK 22 or newer, found by itself: JAVA_HOME when it is new
rem enough, else the java on PATH, else the newest JDK in the usual install folders (Eclipse Adoptium, Java,
rem Microsoft, Zulu, Amazon Corretto, BellSoft under Program Files; %USERPROFILE%\.jdks); the version is read from
rem the JDK's release file, as the POSIX launcher does. None found: it says where to get one and exits 1.
rem Start-up cache: the JVM's dynamic CDS archive (JDK 19+, -XX:+AutoCreateSharedArchive), made at the end of the
rem first run and made again by the JVM itself whenever the JDK or a jar changed, kept per installation folder under
rem %LOCALAPPDATA%\etw4j\cache (or ETW_CACHE_DIR). ETW_AOT=0 turns it off; ETW_JAVA_OPTS adds JVM options.
setlocal EnableExtensions DisableDelayedExpansion

set "ETW_HOME=%~dp0.."
for %%I in ("%ETW_HOME%") do set "ETW_HOME=%%~fI"
set "ETW_LIB=%ETW_HOME%\lib"
set "ETW_NEED=22"
set "ETW_BEST=0"
set "ETW_JDK="

if defined JAVA_HOME call :check_jdk "%JAVA_HOME%"
if defined ETW_JDK goto found
for /f "delims=" %%J in ('where java.exe 2^>nul') do if not defined ETW_JDK call :check_jdk "%%~dpJ.."
if defined ETW_JDK goto found
for %%D in ("%ProgramFiles%\Eclipse Adoptium" "%ProgramFiles%\Java" "%ProgramFiles%\Microsoft" "%ProgramFiles%\Zulu" "%ProgramFiles%\Amazon Corretto" "%ProgramFiles%\BellSoft" "%LOCALAPPDATA%\Programs\Eclipse Adoptium" "%USERPROFILE%\.jdks") do if exist "%%~D\" for /d %%K in ("%%~D\*") do call :check_jdk "%%~fK"
if defined ETW_JDK goto found
>&2 echo etw: needs a JDK %ETW_NEED% or newer, looked at JAVA_HOME, the java on PATH and the usual install folders: install one, e.g. Temurin 25 from https://adoptium.net, or set JAVA_HOME to it
exit /b 1

:found
set "ETW_JAVA=%ETW_JDK%\bin\java.exe"
set "ETW_CDS="
if "%ETW_AOT%"=="0" goto run
set "ETW_CACHE=%LOCALAPPDATA%\etw4j\cache"
if defined ETW_CACHE_DIR set "ETW_CACHE=%ETW_CACHE_DIR%"
rem one cache per installation folder: its path, with the characters a file name cannot hold replaced
set "ETW_KEY=%ETW_HOME::=%"
set "ETW_KEY=%ETW_KEY:\=_%"
set "ETW_KEY=%ETW_KEY: =_%"
if not exist "%ETW_CACHE%\%ETW_KEY%\" mkdir "%ETW_CACHE%\%ETW_KEY%" 2>nul
if not exist "%ETW_CACHE%\%ETW_KEY%\" goto run
set "ETW_CDS=-XX:+AutoCreateSharedArchive -XX:SharedArchiveFile="%ETW_CACHE%\%ETW_KEY%\etw-jdk%ETW_BEST%.jsa" -Xlog:cds=off -Xlog:cds+dynamic=off"
if %ETW_BEST% GEQ 25 set "ETW_CDS=%ETW_CDS% -Xlog:aot=off"

:run
"%ETW_JAVA%" %ETW_CDS% --enable-native-access=ALL-UNNAMED %ETW_JAVA_OPTS% -cp "%ETW_LIB%\*" org.etw4j.cli.EtwCommand %*
exit /b %ERRORLEVEL%

:check_jdk
rem %1 = a JDK folder. When its release file says JAVA_VERSION is ETW_NEED or newer, and newer than the best found
rem so far, it becomes ETW_JDK (its feature version ETW_BEST).
if not exist "%~1\bin\java.exe" goto :eof
if not exist "%~1\release" goto :eof
set "ETW_V="
for /f "usebackq tokens=1,* delims==" %%A in ("%~1\release") do if "%%A"=="JAVA_VERSION" set "ETW_V=%%~B"
if not defined ETW_V goto :eof
set "ETW_F=0"
for /f "tokens=1 delims=.-+_" %%M in ("%ETW_V%") do set "ETW_F=%%M"
if %ETW_F% LSS %ETW_NEED% goto :eof
if %ETW_F% LEQ %ETW_BEST% goto :eof
set "ETW_BEST=%ETW_F%"
set "ETW_JDK=%~f1"
goto :eof
