import UIKit

final class InboxViewController: UITableViewController {
  static weak var current: InboxViewController?

  override func viewDidLoad() {
    super.viewDidLoad()
    Self.current = self
    restorationIdentifier = "inbox"
  }

  func refresh() {
    tableView.reloadData()
  }
}
