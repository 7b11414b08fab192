"""A generated Xcode repository for `lifesim scan`'s benchmark (issue 46): one app target of
`n` Swift files, each referenced by the app and by its unit-test target as real projects do,
in a project.pbxproj padded with resource files to about 3.9 MB at 5,000 files (under the 4 MiB
a file may have). Written here, not copied from any app.

python3 bench/scan_repo.py N DIR writes it to DIR/repo-N and prints the folder."""
import os, sys

PROJECT_BYTES_AT_5000 = 3_900_000


def object_id(kind, i):
    return f"{kind:02X}{i:022X}"


def swift_files(folder, n):
    """The app delegate (a BGTask, a background task, a scene manifest) and n - 1 model types."""
    os.makedirs(os.path.join(folder, "App", "Model"), exist_ok=True)
    with open(os.path.join(folder, "App", "Info.plist"), "w") as f:
        f.write('<?xml version="1.0" encoding="UTF-8"?>\n<plist version="1.0"><dict>'
                "<key>BGTaskSchedulerPermittedIdentifiers</key><array><string>com.example.sync</string></array>"
                "<key>UIApplicationSceneManifest</key><dict><key>UISceneConfigurations</key><dict>"
                "<key>UIWindowSceneSessionRoleApplication</key><array><dict><key>UISceneDelegateClassName</key>"
                "<string>$(PRODUCT_MODULE_NAME).SceneDelegate</string></dict></array></dict></dict></dict></plist>\n")
    with open(os.path.join(folder, "App", "AppDelegate.swift"), "w") as f:
        f.write("import BackgroundTasks\nimport UIKit\n\n@main\nclass AppDelegate: UIResponder, UIApplicationDelegate {\n"
                "  func application(_ application: UIApplication, didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?) -> Bool {\n"
                '    BGTaskScheduler.shared.register(forTaskWithIdentifier: "com.example.sync", using: nil) { $0.setTaskCompleted(success: true) }\n'
                "    Model0.shared.load()\n    return true\n  }\n}\n\n"
                "class SceneDelegate: UIResponder, UIWindowSceneDelegate {\n  var window: UIWindow?\n\n"
                "  func sceneDidEnterBackground(_ scene: UIScene) {\n    var task = UIBackgroundTaskIdentifier.invalid\n"
                '    task = UIApplication.shared.beginBackgroundTask(withName: "save") { UIApplication.shared.endBackgroundTask(task) }\n'
                "    Model0.shared.save { UIApplication.shared.endBackgroundTask(task) }\n  }\n}\n")
    for i in range(n - 1):
        with open(os.path.join(folder, "App", "Model", f"Model{i}.swift"), "w") as f:
            f.write(f"import Foundation\n\nfinal class Model{i} {{\n  static let shared = Model{i}()\n"
                    f'  static let key = "model.{i}"\n  private var items: [String] = []\n\n'
                    f"  func load() {{\n    items = UserDefaults.standard.stringArray(forKey: Self.key) ?? []\n    Model{(i + 1) % max(1, n - 1)}.shared.touch()\n  }}\n\n"
                    "  func touch() {\n    if items.isEmpty { items.append(\"x\") } else { items.removeLast() }\n  }\n\n"
                    "  func save(then done: @escaping () -> Void) {\n    DispatchQueue.global().async {\n"
                    "      UserDefaults.standard.set(self.items, forKey: Self.key)\n      DispatchQueue.main.async(execute: done)\n    }\n  }\n}\n")


def project(folder, n):
    """project.pbxproj: every Swift file in the app's and the tests' Sources phases, and resource
    files (never read by the scan) until the file has its share of 3.9 MB at 5,000 files."""
    names = ["AppDelegate.swift"] + [f"Model{i}.swift" for i in range(n - 1)]
    paths = ["AppDelegate.swift"] + [f"Model/Model{i}.swift" for i in range(n - 1)]
    build, refs, children, app_phase, test_phase = [], [], [], [], []
    for i, (name, path) in enumerate(zip(names, paths)):
        ref = object_id(1, i)
        refs.append(f"\t\t{ref} /* {name} */ = {{isa = PBXFileReference; lastKnownFileType = sourcecode.swift; path = {path}; sourceTree = \"<group>\"; }};")
        children.append(f"\t\t\t\t{ref} /* {name} */,")
        for kind, phase in ((2, app_phase), (3, test_phase)):
            b = object_id(kind, i)
            build.append(f"\t\t{b} /* {name} in Sources */ = {{isa = PBXBuildFile; fileRef = {ref} /* {name} */; }};")
            phase.append(f"\t\t\t\t{b} /* {name} in Sources */,")
    target_bytes = PROJECT_BYTES_AT_5000 * n // 5000
    size = sum(len(x) + 1 for x in build + refs + children + app_phase + test_phase) + 4000
    r = 0
    while size < target_bytes:
        line = f"\t\t{object_id(4, r)} /* Asset{r}.png */ = {{isa = PBXFileReference; lastKnownFileType = image.png; path = Resources/Asset{r}.png; sourceTree = \"<group>\"; }};"
        refs.append(line)
        size += len(line) + 1
        r += 1
    config = lambda i, name, settings: (f"\t\t{object_id(5, i)} /* {name} */ = {{\n\t\t\tisa = XCBuildConfiguration;\n"
                                         f"\t\t\tbuildSettings = {{\n{settings}\t\t\t}};\n\t\t\tname = {name};\n\t\t}};")
    app_settings = "\t\t\t\tINFOPLIST_FILE = App/Info.plist;\n\t\t\t\tPRODUCT_NAME = Ledger;\n\t\t\t\tIPHONEOS_DEPLOYMENT_TARGET = 16.0;\n"
    text = "\n".join([
        "// !$*UTF8*$!", "{", "\tarchiveVersion = 1;", "\tobjectVersion = 56;", "\tobjects = {", "",
        "/* Begin PBXBuildFile section */", *build, "/* End PBXBuildFile section */", "",
        "/* Begin PBXFileReference section */", *refs, "/* End PBXFileReference section */", "",
        "/* Begin PBXGroup section */",
        f"\t\t{object_id(6, 0)} = {{\n\t\t\tisa = PBXGroup;\n\t\t\tchildren = (\n\t\t\t\t{object_id(6, 1)},\n\t\t\t);\n\t\t\tsourceTree = \"<group>\";\n\t\t}};",
        f"\t\t{object_id(6, 1)} /* App */ = {{\n\t\t\tisa = PBXGroup;\n\t\t\tchildren = (", *children,
        "\t\t\t);\n\t\t\tpath = App;\n\t\t\tsourceTree = \"<group>\";\n\t\t};", "/* End PBXGroup section */", "",
        "/* Begin PBXNativeTarget section */",
        f"\t\t{object_id(7, 0)} /* Ledger */ = {{\n\t\t\tisa = PBXNativeTarget;\n\t\t\tbuildConfigurationList = {object_id(8, 0)};\n"
        f"\t\t\tbuildPhases = (\n\t\t\t\t{object_id(9, 0)},\n\t\t\t);\n\t\t\tdependencies = (\n\t\t\t);\n\t\t\tname = Ledger;\n"
        "\t\t\tproductType = \"com.apple.product-type.application\";\n\t\t};",
        f"\t\t{object_id(7, 1)} /* LedgerTests */ = {{\n\t\t\tisa = PBXNativeTarget;\n\t\t\tbuildConfigurationList = {object_id(8, 1)};\n"
        f"\t\t\tbuildPhases = (\n\t\t\t\t{object_id(9, 1)},\n\t\t\t);\n\t\t\tdependencies = (\n\t\t\t);\n\t\t\tname = LedgerTests;\n"
        "\t\t\tproductType = \"com.apple.product-type.bundle.unit-test\";\n\t\t};",
        "/* End PBXNativeTarget section */", "",
        "/* Begin PBXProject section */",
        f"\t\t{object_id(10, 0)} = {{\n\t\t\tisa = PBXProject;\n\t\t\tbuildConfigurationList = {object_id(8, 2)};\n\t\t\tmainGroup = {object_id(6, 0)};\n"
        f"\t\t\ttargets = (\n\t\t\t\t{object_id(7, 0)},\n\t\t\t\t{object_id(7, 1)},\n\t\t\t);\n\t\t}};",
        "/* End PBXProject section */", "",
        "/* Begin PBXSourcesBuildPhase section */",
        f"\t\t{object_id(9, 0)} = {{\n\t\t\tisa = PBXSourcesBuildPhase;\n\t\t\tfiles = (", *app_phase, "\t\t\t);\n\t\t};",
        f"\t\t{object_id(9, 1)} = {{\n\t\t\tisa = PBXSourcesBuildPhase;\n\t\t\tfiles = (", *test_phase, "\t\t\t);\n\t\t};",
        "/* End PBXSourcesBuildPhase section */", "",
        "/* Begin XCBuildConfiguration section */",
        config(0, "Debug", app_settings), config(1, "Release", app_settings),
        config(2, "Debug", "\t\t\t\tPRODUCT_NAME = LedgerTests;\n"), config(3, "Debug", "\t\t\t\tSDKROOT = iphoneos;\n"),
        "/* End XCBuildConfiguration section */", "",
        "/* Begin XCConfigurationList section */",
        f"\t\t{object_id(8, 0)} = {{\n\t\t\tisa = XCConfigurationList;\n\t\t\tbuildConfigurations = (\n\t\t\t\t{object_id(5, 0)},\n\t\t\t\t{object_id(5, 1)},\n\t\t\t);\n\t\t}};",
        f"\t\t{object_id(8, 1)} = {{\n\t\t\tisa = XCConfigurationList;\n\t\t\tbuildConfigurations = (\n\t\t\t\t{object_id(5, 2)},\n\t\t\t);\n\t\t}};",
        f"\t\t{object_id(8, 2)} = {{\n\t\t\tisa = XCConfigurationList;\n\t\t\tbuildConfigurations = (\n\t\t\t\t{object_id(5, 3)},\n\t\t\t);\n\t\t}};",
        "/* End XCConfigurationList section */",
        "\t};", f"\trootObject = {object_id(10, 0)};", "}", ""])
    os.makedirs(os.path.join(folder, "Ledger.xcodeproj"), exist_ok=True)
    with open(os.path.join(folder, "Ledger.xcodeproj", "project.pbxproj"), "w") as f:
        f.write(text)
    return len(text.encode())


def repository(n, parent):
    """The repository of `n` Swift files under `parent` (made once); its folder."""
    folder = os.path.join(parent, f"repo-{n}")
    if not os.path.isdir(folder):
        swift_files(folder, n)
        project(folder, n)
    return folder


if __name__ == "__main__":
    print(repository(int(sys.argv[1]), sys.argv[2]))
